"""The identity and object-store flows of flows.py through the 2.x SDK: a directory service cleared by a PATCH
to empty values, Active Directory and the keytabs the array makes from it (and their download, a file), object
store access policies (built-in and, from 2.12, made with rules) attached to users, and the admins cache.
"""
import os

from harness_2x import V, M, flow, names, ok, raw, refused, report, session, VERSION


@flow((2, 0))
def directory_clear():
    p = "directory-clear"
    fb = session()
    ok(fb.patch_directory_services(names=["management"], directory_service=M.DirectoryService(uris=["ldaps://ldap.conf2.example"], base_dn="dc=conf2", bind_user="cn=conf2", bind_password="conf2-bind-secret")))
    listed = ok(fb.get_directory_services(names=["management"]))
    report("secrets", "the bind password is masked", [d.bind_password for d in listed] == ["****"], listed)
    # purefb_ds's state=absent for the management service: empty values, disabled.
    cleared = M.DirectoryService(uris=[""], base_dn="", bind_user="", bind_password="", enabled=False)
    ok(fb.patch_directory_services(names=["management"], directory_service=cleared))
    ds = ok(fb.get_directory_services(names=["management"]))
    report(p, "uris [''] with enabled=false clears the service", ds and ds[0].uris == [] and ds[0].enabled is False and ds[0].base_dn is None and ds[0].bind_user is None and ds[0].bind_password is None, ds)
    refused(p, "enabling a service with no URIs refused", fb.patch_directory_services(names=["management"], directory_service=M.DirectoryService(enabled=True)), "no URIs")
    ok(fb.patch_directory_services_roles(role_names=["readonly"], directory_service_roles=M.DirectoryServiceRole(group="", group_base="")))
    role = ok(fb.get_directory_services_roles(role_names=["readonly"]))
    report(p, "a role's cleared group and group_base read back null", role and role[0].group is None and role[0].group_base is None, role)


@flow((2, 0))
def keytabs_from_directory():
    p = "keytabs-from-directory"
    fb = session()
    # The demo array is joined as ad1 and an array joins one domain at a time: leave it first.
    ok(fb.delete_active_directory(names=["ad1"]))
    join = M.ActiveDirectoryPost(domain="corp.example.com", user="joiner", password="conf2-join-secret", computer_name="CONF2FB")
    ok(fb.post_active_directory(names=["conf2-ad"], active_directory=join))
    ad = ok(fb.get_active_directory(names=["conf2-ad"]))
    report(p, "the account is listed with its principals", ad and "nfs/conf2fb.corp.example.com" in ad[0].service_principal_names, ad)
    report("secrets", "the join password is never listed", ad and "conf2-join-secret" not in str(ad[0].to_dict()), ad)
    made = ok(fb.post_keytabs(keytab=M.KeytabPost(source=M.Reference(name="conf2-ad")), name_prefixes="conf2"))
    report(p, "keytabs created from the account", [k.name for k in made][:2] == ["conf2.1", "conf2.2"] and made[0].realm == "CORP.EXAMPLE.COM", made)
    got = ok(fb.get_keytabs_download(keytab_names=["conf2.1"]))
    path = got[0] if got else None
    data = open(path, "rb").read() if path and os.path.isfile(path) else b""
    # An MIT keytab file starts with 0x05 0x02; the SDK names the file after Content-Disposition.
    report(p, "the download is a keytab file the SDK saves", data[:2] == b"\x05\x02" and os.path.basename(path) == "conf2.keytab", path)
    r = raw("GET", f"{VERSION}/keytabs/download?keytab_names=conf2.1")
    report(p, "answered as application/octet-stream with a filename", r.status == 200 and r.headers.get("Content-Type") == "application/octet-stream" and "filename=" in (r.headers.get("Content-Disposition") or ""), dict(r.headers))
    refused(p, "an unknown account refused", fb.post_keytabs(keytab=M.KeytabPost(source=M.Reference(name="no-such-ad"))), "does not exist")
    ok(fb.delete_keytabs(names=["conf2.1"]))
    report(p, "deleted by name", "conf2.1" not in names(ok(fb.get_keytabs())))


@flow((2, 0))
def access_policies():
    p = "access-policies"
    fb = session()
    builtin = names(ok(fb.get_object_store_access_policies()))
    report(p, "built-in policies shipped", {"pure:policy/full-access", "pure:policy/bucket-list", "pure:policy/object-read"} <= set(builtin), builtin)
    ok(fb.post_object_store_users(names=["analytics/conf2-pol-user"]))
    q = "association-access-policy-users"
    ok(fb.post_object_store_access_policies_object_store_users(policy_names=["pure:policy/object-read"], member_names=["analytics/conf2-pol-user"]))
    one = ok(fb.get_object_store_access_policies_object_store_users(member_names=["analytics/conf2-pol-user"]))
    other = ok(fb.get_object_store_users_object_store_access_policies(policy_names=["pure:policy/object-read"]))
    report(q, "listed from the policy", [(x.policy.name, x.member.name) for x in one] == [("pure:policy/object-read", "analytics/conf2-pol-user")], one)
    report(q, "listed from the user", ("pure:policy/object-read", "analytics/conf2-pol-user") in [(x.policy.name, x.member.name) for x in other], other)
    ok(fb.delete_object_store_users_object_store_access_policies(policy_names=["pure:policy/object-read"], member_names=["analytics/conf2-pol-user"]))
    report(q, "removed", ok(fb.get_object_store_access_policies_object_store_users(member_names=["analytics/conf2-pol-user"])) == [])
    if V < (2, 2):  # an account's own access policies, and their rules, came in 2.2
        return
    p = "access-policy-rules"
    rule = M.PolicyRuleObjectAccessBulkManage(name="read", actions=["s3:GetObject"], effect="allow", resources=["*"])
    made = ok(fb.post_object_store_access_policies(names=["analytics/conf2-policy"], policy=M.ObjectStoreAccessPolicyPost(description="conformance", rules=[rule])))
    report(p, "a policy made with a rule", made and made[0].name == "analytics/conf2-policy" and [r.name for r in made[0].rules or []] == ["read"], made)
    ok(fb.post_object_store_access_policies_rules(names=["list"], policy_names=["analytics/conf2-policy"], rule=M.PolicyRuleObjectAccessPost(actions=["s3:ListBucket"], effect="allow", resources=["*"])))
    ok(fb.patch_object_store_access_policies_rules(names=["list"], policy_names=["analytics/conf2-policy"], rule=M.PolicyRuleObjectAccessPost(actions=["s3:ListBucket"], effect="allow", resources=["arn:aws:s3:::analytics-raw"])))
    rules = ok(fb.get_object_store_access_policies_rules(policy_names=["analytics/conf2-policy"]))
    report(p, "rules listed, the changed one changed", sorted((r.name, tuple(r.resources)) for r in rules) == [("list", ("arn:aws:s3:::analytics-raw",)), ("read", ("*",))], rules)
    ok(fb.delete_object_store_access_policies_rules(names=["list"], policy_names=["analytics/conf2-policy"]))
    report(p, "a rule deleted", [r.name for r in ok(fb.get_object_store_access_policies_rules(policy_names=["analytics/conf2-policy"]))] == ["read"])
    ok(fb.delete_object_store_access_policies(names=["analytics/conf2-policy"]))
    report(p, "the policy deleted", "analytics/conf2-policy" not in names(ok(fb.get_object_store_access_policies())))


@flow((2, 0))
def admins_cache():
    p = "admins-cache"
    fb = session()
    cached = ok(fb.get_admins_cache(refresh=True, names=["mlee"]))
    report(p, "refresh by name", [c.name for c in cached] == ["mlee"] and cached[0].role.name == "readonly", cached)
    ok(fb.delete_admins_cache(names=["jdoe"]))
    report(p, "cleared by name", "jdoe" not in names(ok(fb.get_admins_cache())))


