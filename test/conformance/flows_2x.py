"""Conformance flows: Pure's own REST 2.x Python SDK (py-pure-client 1.90.0) drives a simulated array.

Usage: flows_2x.py HOST VERSION API_TOKEN FIXTURES_DIR LISTS_JSON DR_HOST

HOST serves 1.x and 2.x up to VERSION. FIXTURES_DIR holds `client-key.pem` (PKCS#1, as paramiko reads it) and
`client-public.pem`, and is the working directory (the SDK writes its OAuth access token there). LISTS_JSON is
{"lists": the canonical GET paths of the operation table that 1.x has and VERSION serves, "v1_gets": every GET path
the 1.x table has} (conformance-2x.test.ts reads both from src/rest-spec/operations.ts). DR_HOST is a second simulated
array, named conf-dr: the DR peer of the replication flows.

Each check prints one JSON line, as flows.py: {"version", "point", "check", "ok", "detail"}. A flow that raises is
a failed check and the next flow still runs; no traceback reaches stdout or stderr.
"""
from harness_2x import (  # noqa: F401
    FIXTURES, LISTS, TOKEN, VERSION, M, PureError, connect, fixture, flow, names, ok, protocols_off, raw, refused,
    report, run, sdk_gets, valid, why,
)
import json
import time

import harness_2x

fb = None


@flow((2, 0))
def login_api_token():
    global fb
    p = "login-api-token"
    fb = connect(api_token=TOKEN)
    harness_2x._sessions[harness_2x.HOST] = fb
    report(p, "the SDK picked the requested version", type(fb).__module__.endswith(f"FB_{VERSION.replace('.', '_')}.client"), type(fb).__module__)
    r = fb.get_arrays()
    report(p, "a call with the session answers", valid(r) and len(list(r.items)) == 1, why(r))


def register_client(name, enabled):
    """The API client the OAuth login uses, made through the 2.x SDK as an admin would."""
    made = fb.post_api_clients(names=[name], api_client=M.ApiClientsPost(
        max_role=M.ReferenceWritable(name="array_admin"), issuer="conf-issuer",
        public_key=fixture("client-public.pem"), access_token_ttl_in_ms=3_600_000))
    if not valid(made):
        raise RuntimeError(f"post_api_clients failed: {why(made)}")
    client = list(made.items)[0]
    if enabled:
        done = fb.patch_api_clients(names=[name], api_clients=M.ApiClient(enabled=True))
        if not valid(done):
            raise RuntimeError(f"patch_api_clients failed: {why(done)}")
    return client


def oauth(client, **over):
    args = dict(private_key_file=f"{FIXTURES}/client-key.pem", username="pureuser", client_id=client.id,
                key_id=client.key_id, issuer="conf-issuer")
    args.update(over)
    return connect(**args)


@flow((2, 0))
def login_oauth():
    p = "login-oauth"
    client = register_client("conf-oauth", enabled=False)
    report(p, "an API client is created disabled, with an id and a key_id", client.enabled is False and bool(client.id) and bool(client.key_id), client)
    try:
        oauth(client)
        report(p, "a disabled client's token exchange is refused", False, "accepted")
    except PureError as e:
        report(p, "a disabled client's token exchange is refused", True, e)
    fb.patch_api_clients(names=["conf-oauth"], api_clients=M.ApiClient(enabled=True))
    via = oauth(client)
    r = via.get_arrays()
    report(p, "the access token is taken as Bearer", valid(r) and len(list(r.items)) == 1, why(r))
    for label, over in (("a wrong issuer", {"issuer": "someone-else"}), ("an unknown user", {"username": "nobody"})):
        try:
            oauth(client, **over)
            report(p, f"{label} is refused", False, "accepted")
        except PureError as e:
            report(p, f"{label} is refused", True, e)


def page_accepted(path, args, r):
    """The SDK's answer is a page, and every raw item validates against the model class the SDK chose for it."""
    if not valid(r):
        return False, why(r)
    items = list(r.items)
    if not items:
        return True, "empty"
    query = "&".join(f"{k}={','.join(v)}" for k, v in args.items())
    body = json.loads(raw("GET", f"{VERSION}{path}?{query}").data or b"{}")
    model = type(items[0])
    try:
        for item in body.get("items", []):
            model.parse_obj(item)
    except Exception as e:  # pydantic's ValidationError names the field and the type
        return False, f"{model.__name__}: {e}"
    return True, len(items)


# Calls that need a selector to be a listing at all (the SDK has no default for it).
ARGS = {
    "/usage/users": {"file_system_names": ["home"]},
    "/usage/groups": {"file_system_names": ["home"]},
}


@flow((2, 0))
def every_list():
    p = "lists"
    with open(LISTS) as f:
        spec = json.load(f)
    # The SDK's own GET calls at this version, read from its generated code: each GET it has on a path of the 1.x
    # table must be in the sweep, so neither side's list can hide one.
    sdk = sdk_gets(VERSION)
    swept = set(spec["lists"])
    missing = sorted(path for path in sdk if path in set(spec["v1_gets"]) and path not in swept)
    report(p, "every GET the SDK has on a path of the 1.x table is swept", sdk and missing == [], missing or len(sdk))
    for path in spec["lists"]:
        method = sdk.get(path)
        if method is None:
            report(p, f"GET {path}: the SDK has a call for it", False, f"none at {VERSION}")
            continue
        args = ARGS.get(path, {})
        try:
            ok, detail = page_accepted(path, args, getattr(fb, method)(**args))
        except Exception as e:  # a pydantic error or PureError out of the call: the page was not accepted
            ok, detail = False, f"{type(e).__name__}: {e}"
        report(p, f"GET {path} ({method})", ok, detail)


@flow((2, 0))
def file_system_lifecycle():
    p = "fs-lifecycle"
    made = ok(fb.post_file_systems(names=["conf2-fs"], file_system=M.FileSystemPost(provisioned=1 << 30, nfs=M.Nfs(v3_enabled=True), http=M.Http(enabled=True))))
    report(p, "created with NFS and HTTP", made and made[0].name == "conf2-fs" and made[0].nfs.v3_enabled is True, made)
    grown = ok(fb.patch_file_systems(names=["conf2-fs"], file_system=M.FileSystemPatch(provisioned=2 << 30)))
    report(p, "resized", grown and grown[0].provisioned == 2 << 30, grown)
    refused(p, "destroy while serving refused", fb.patch_file_systems(names=["conf2-fs"], file_system=M.FileSystemPatch(destroyed=True)), "still serves")
    gone = ok(fb.patch_file_systems(names=["conf2-fs"], file_system=M.FileSystemPatch(destroyed=True, **protocols_off())))
    report(p, "destroyed with its protocols off in the same PATCH", gone and gone[0].destroyed is True, gone)
    listed = ok(fb.get_file_systems(names=["conf2-fs"], destroyed=True))
    report(p, "listed as destroyed", [f.destroyed for f in listed] == [True], listed)
    back = ok(fb.patch_file_systems(names=["conf2-fs"], file_system=M.FileSystemPatch(destroyed=False, provisioned=3 << 30, nfs=M.Nfs(v3_enabled=True))))
    report(p, "recovered and changed in one PATCH", back and (back[0].destroyed, back[0].provisioned, back[0].nfs.v3_enabled) == (False, 3 << 30, True), back)
    refused(p, "a live file system is not eradicated", fb.delete_file_systems(names=["conf2-fs"]), "destroy")
    ok(fb.patch_file_systems(names=["conf2-fs"], file_system=M.FileSystemPatch(destroyed=True, **protocols_off())))
    done = fb.delete_file_systems(names=["conf2-fs"])
    report(p, "eradicated once destroyed", valid(done) and ok(fb.get_file_systems(filter="name='conf2-fs'")) == [], why(done))


@flow((2, 0))
def snapshot_lifecycle():
    p = "snapshot-lifecycle"
    made = ok(fb.post_file_system_snapshots(source_names=["media"], file_system_snapshot=M.FileSystemSnapshotPost(suffix="conf2")))
    report(p, "taken with a suffix", [x.name for x in made] == ["media.conf2"], made)
    src = made[0].source if made else None
    report(p, "its source is a reference to the file system", src is not None and src.name == "media" and src.is_local is True, src)
    ok(fb.patch_file_system_snapshots(names=["media.conf2"], file_system_snapshot=M.FileSystemSnapshot(destroyed=True)))
    report(p, "destroyed", [x.destroyed for x in ok(fb.get_file_system_snapshots(names_or_owner_names=["media.conf2"]))] == [True])
    ok(fb.patch_file_system_snapshots(names=["media.conf2"], file_system_snapshot=M.FileSystemSnapshot(destroyed=False)))
    report(p, "recovered", [x.destroyed for x in ok(fb.get_file_system_snapshots(names_or_owner_names=["media.conf2"]))] == [False])
    refused(p, "a live snapshot is not eradicated", fb.delete_file_system_snapshots(names=["media.conf2"]), "destroy")
    ok(fb.patch_file_system_snapshots(names=["media.conf2"], file_system_snapshot=M.FileSystemSnapshot(destroyed=True)))
    done = fb.delete_file_system_snapshots(names=["media.conf2"])
    report(p, "eradicated once destroyed", valid(done) and ok(fb.get_file_system_snapshots(filter="name='media.conf2'")) == [], why(done))


@flow((2, 0))
def bucket_lifecycle():
    p = "bucket-lifecycle"
    # The PATCH body is BucketPatch from 2.12; 2.0's SDK sends a Bucket.
    Patch = getattr(M, "BucketPatch", None) or M.Bucket
    made = ok(fb.post_buckets(names=["conf2-bucket"], bucket=M.BucketPost(account=M.ReferenceWritable(name="analytics"))))
    report(p, "created in an account", made and made[0].account.name == "analytics", made)
    refused(p, "an unknown account refused", fb.post_buckets(names=["conf2-b2"], bucket=M.BucketPost(account=M.ReferenceWritable(name="no-such-account"))), "does not exist")
    ok(fb.patch_buckets(names=["conf2-bucket"], bucket=Patch(destroyed=True)))
    report(p, "destroyed", [b.destroyed for b in ok(fb.get_buckets(names=["conf2-bucket"], destroyed=True))] == [True])
    ok(fb.patch_buckets(names=["conf2-bucket"], bucket=Patch(destroyed=False)))
    report(p, "recovered", [b.destroyed for b in ok(fb.get_buckets(names=["conf2-bucket"]))] == [False])
    ok(fb.patch_buckets(names=["conf2-bucket"], bucket=Patch(destroyed=True)))
    done = fb.delete_buckets(names=["conf2-bucket"])
    report(p, "eradicated", valid(done) and ok(fb.get_buckets(filter="name='conf2-bucket'")) == [], why(done))


@flow((2, 0))
def network():
    p = "network"
    s = ok(fb.post_subnets(names=["conf2-net"], subnet=M.Subnet(prefix="10.78.0.0/24", gateway="10.78.0.1", vlan=78)))
    report(p, "subnet created enabled with MTU 1500", s and s[0].enabled is True and s[0].mtu == 1500, s)
    i = ok(fb.post_network_interfaces(names=["conf2-vip"], network_interface=M.NetworkInterface(address="10.78.0.10", services=["data"], type="vip")))
    report(p, "interface inherits the subnet's gateway, MTU and VLAN", i and (i[0].gateway, i[0].mtu, i[0].vlan) == ("10.78.0.1", 1500, 78), i)
    ok(fb.patch_subnets(names=["conf2-net"], subnet=M.Subnet(mtu=9000)))
    report(p, "a subnet MTU change shows on the interface", [x.mtu for x in ok(fb.get_network_interfaces(names=["conf2-vip"]))] == [9000])
    refused(p, "a subnet with interfaces is not deleted", fb.delete_subnets(names=["conf2-net"]), "still has network interfaces")
    ok(fb.delete_network_interfaces(names=["conf2-vip"]))
    ok(fb.delete_subnets(names=["conf2-net"]))
    report(p, "deleted", "conf2-net" not in names(ok(fb.get_subnets())))


@flow((2, 0))
def certificates():
    p = "certificates"
    made = ok(fb.post_certificates(names=["conf2-cert"], certificate=M.CertificatePost(certificate=fixture("cert.pem"), private_key=fixture("key.pem"), certificate_type="array")))
    report(p, "fields read from the PEM", made and (made[0].common_name, made[0].key_size) == ("conf.example.com", 2048), made)
    listed = ok(fb.get_certificates(names=["conf2-cert"]))
    report(p, "validity is an integer of milliseconds", listed and isinstance(listed[0].valid_from, int) and isinstance(listed[0].valid_to, int), listed)
    report(p, "the private key is never listed", listed and getattr(listed[0], "private_key", None) is None, listed)
    ok(fb.delete_certificates(names=["conf2-cert"]))
    report(p, "deleted", ok(fb.get_certificates(filter="name='conf2-cert'")) == [])


@flow((2, 0))
def policies():
    p = "policies"
    ok(fb.post_policies(names=["conf2-hourly"], policy=M.Policy(enabled=True)))
    ok(fb.post_policies_file_systems(policy_names=["conf2-hourly"], member_names=["media"]))
    members = ok(fb.get_policies_file_systems(policy_names=["conf2-hourly"]))
    report(p, "attached and listed from the policy", [(m.policy.name, m.member.name) for m in members] == [("conf2-hourly", "media")], members)
    mirror = ok(fb.get_file_systems_policies(member_names=["media"]))
    report(p, "listed from the file system", ("conf2-hourly", "media") in [(m.policy.name, m.member.name) for m in mirror], mirror)
    ok(fb.delete_policies_file_systems(policy_names=["conf2-hourly"], member_names=["media"]))
    ok(fb.delete_policies(names=["conf2-hourly"]))
    report(p, "detached and deleted", "conf2-hourly" not in names(ok(fb.get_policies())))


@flow((2, 0))
def admin_password():
    p = "admin-password"
    refused(p, "a wrong old_password refused", fb.patch_admins(names=["pureuser"], admin=M.AdminPatch(password="Conf2-New-Pass", old_password="wrong")), "old_password")
    ok(fb.patch_admins(names=["pureuser"], admin=M.AdminPatch(password="Conf2-New-Pass", old_password="pureuser")))
    listed = ok(fb.get_admins(names=["pureuser"]))
    report(p, "changed, and the password is never listed", listed and "Conf2-New-Pass" not in json.dumps(listed[0].to_dict(), default=str), listed)


@flow((2, 0))
def api_tokens():
    p = "admin-api-tokens"
    listed = ok(fb.get_admins_api_tokens())
    report(p, "tokens are listed masked", all(t.api_token is None or t.api_token.token in (None, "****") for t in listed), listed)


@flow((2, 0))
def snmp_and_directory():
    p = "snmp-directory"
    v3 = M.SnmpV3Post(user="conf2-snmp", auth_protocol="SHA", auth_passphrase="conf2-auth-pass")
    made = ok(fb.post_snmp_managers(names=["conf2-nms"], snmp_manager=M.SnmpManagerPost(host="nms3.example.com", notification="trap", version="v3", v3=v3)))
    report(p, "a v3 SNMP manager created", made and made[0].v3.user == "conf2-snmp", made)
    listed = ok(fb.get_snmp_managers(names=["conf2-nms"]))
    report(p, "listed with its v3 user and protocol", listed and (listed[0].v3.user, listed[0].v3.auth_protocol) == ("conf2-snmp", "SHA"), listed)
    ok(fb.delete_snmp_managers(names=["conf2-nms"]))
    report(p, "deleted", ok(fb.get_snmp_managers(filter="name='conf2-nms'")) == [])
    ok(fb.patch_directory_services_roles(role_names=["ops_admin"], directory_service_roles=M.DirectoryServiceRole(group="noc", group_base="ou=groups,dc=example,dc=com")))
    roles = ok(fb.get_directory_services_roles(role_names=["ops_admin"]))
    report(p, "a role mapped to a group", roles and roles[0].group == "noc", roles)


@flow((2, 0))
def object_store_keys():
    p = "object-store-keys"
    ok(fb.post_object_store_users(names=["analytics/conf2-user"]))
    key = ok(fb.post_object_store_access_keys(object_store_access_key=M.ObjectStoreAccessKeyPost(user=M.ObjectStoreAccessKeyPostUser(name="analytics/conf2-user"))))
    report(p, "a new key shows its secret once", key and bool(key[0].secret_access_key) and key[0].secret_access_key != "****", [k.name for k in key])
    listed = ok(fb.get_object_store_access_keys(names=[key[0].name]))
    report(p, "listed without its secret", listed and listed[0].secret_access_key in (None, "****"), listed)
    ok(fb.patch_object_store_access_keys(names=[key[0].name], object_store_access_key=M.ObjectStoreAccessKey(enabled=False)))
    report(p, "disabled", [k.enabled for k in ok(fb.get_object_store_access_keys(names=[key[0].name]))] == [False])
    ok(fb.delete_object_store_access_keys(names=[key[0].name]))
    report(p, "deleted", ok(fb.get_object_store_access_keys(filter=f"name='{key[0].name}'")) == [])


@flow((2, 0))
def targets():
    p = "targets"
    t = ok(fb.post_targets(names=["conf2-target"], target=M.TargetPost(address="s3.conf2.example")))
    report(p, "a new target is connecting", t and t[0].status == "connecting", t)
    deadline, status = time.time() + 15, t[0].status if t else None
    while status != "connected" and time.time() < deadline:
        time.sleep(0.25)  # the array connects on its own clock (ten times the wall clock's pace here)
        status = ok(fb.get_targets(names=["conf2-target"]))[0].status
    report(p, "then connected", status == "connected", status)
    ok(fb.patch_targets(names=["conf2-target"], target=M.Target(name="conf2-archive")))
    report(p, "renamed", names(ok(fb.get_targets(names=["conf2-archive"]))) == ["conf2-archive"])
    ok(fb.delete_targets(names=["conf2-archive"]))
    report(p, "deleted", ok(fb.get_targets(filter="name='conf2-archive'")) == [])


# The flows of the other modules run after these, in the order they are imported.
import flows_2x_replication  # noqa: E402,F401
import flows_2x_identity  # noqa: E402,F401
import flows_2x_settings  # noqa: E402,F401

run()
