"""Conformance flows: Pure's own REST 1.x SDK (purity_fb 1.12.3) drives a simulated array.

Usage: flows.py HOST VERSION API_TOKEN FIXTURES_DIR DR_HOST

HOST is a demo array, DR_HOST a second simulated array ("demo-dr" scenario, named conf-dr) in the same
process, the peer for array connections and the array holding replica targets.

Each check prints one JSON line: {"version", "point", "check", "ok", "detail"}. `point` names the
bullet of docs/fidelity.md the check covers (test/conformance/points.json lists which versions carry each).
A flow that raises is reported as a failed check, and the next flow still runs.
"""
import json
import os
import sys
import time
import traceback

import urllib3
import urllib3.util

urllib3.disable_warnings()

from purity_fb import PurityFb  # noqa: E402

HOST, VERSION, TOKEN, FIXTURES, DR_HOST = sys.argv[1:6]
DR_NAME = "conf-dr"
V = tuple(int(p) for p in VERSION.split("."))
fb = PurityFb(HOST, version=VERSION)
fb.disable_verify_ssl()
fb.login(TOKEN)
M = fb.models


def report(point, check, ok, detail=""):
    print(json.dumps({"version": VERSION, "point": point, "check": check, "ok": bool(ok), "detail": str(detail)[:500]}))
    sys.stdout.flush()


def check(point, name, cond, detail=""):
    report(point, name, cond, detail)


def refused(point, name, call, text):
    """The call must fail with 400 and an error message containing `text`."""
    try:
        call()
    except Exception as e:  # each version package of the SDK has its own ApiException class
        if not hasattr(e, "status"):
            raise
        body = e.body.decode() if isinstance(e.body, bytes) else str(e.body)
        report(point, name, e.status == 400 and text.lower() in body.lower(), f"{e.status} {body}")
        return
    report(point, name, False, "accepted, expected a refusal")


def names(items):
    return sorted(i.name for i in items)


def fixture(name):
    with open(os.path.join(FIXTURES, name)) as f:
        return f.read()


FLOWS = []


def flow(since):
    def wrap(fn):
        FLOWS.append((since, fn))
        return fn

    return wrap


def session(host):
    """Another SDK client, logged in to another simulated array."""
    other = PurityFb(host, version=VERSION)
    other.disable_verify_ssl()
    other.login(TOKEN)
    return other


def raw(method, path, body=None):
    """A plain request as the SDK shapes it (x-auth-token, JSON), for what the SDK's models cannot express."""
    http = urllib3.PoolManager(cert_reqs="CERT_NONE")
    login = http.request("POST", f"https://{HOST}/api/login", headers={"api-token": TOKEN})
    headers = {"x-auth-token": login.headers["x-auth-token"], "Content-Type": "application/json"}
    data = None if body is None else json.dumps(body)
    return http.request(method, f"https://{HOST}/api/{VERSION}{path}", headers=headers, body=data)


@flow((1, 8))
def empty_patch():
    p = "patch-no-body"
    # purity_fb sends no body at all for an empty model (rest.py: `if body:`), as the file system module does.
    done = fb.file_systems.update_file_systems(name="media", attributes=M.FileSystem()).items[0]
    check(p, "an empty model, sent without a body, is taken as {}", done.name == "media", done)
    r = raw("PATCH", "/file-systems?name=media")
    check(p, "a PATCH with no body at all answers 200", r.status == 200, f"{r.status} {r.data[:200]}")


@flow((1, 8))
def recover_with_settings():
    p = "recover-with-settings"
    fb.file_systems.create_file_systems(M.FileSystem(name="conf-rec", provisioned=1 << 30))
    fb.file_systems.update_file_systems(name="conf-rec", attributes=M.FileSystem(destroyed=True))
    # purefb_fs's recover: destroyed=false with the task's settings, in one PATCH.
    back = M.FileSystem(destroyed=False, provisioned=2 << 30, hard_limit_enabled=True, nfs=M.NfsRule(v3_enabled=True))
    done = fb.file_systems.update_file_systems(name="conf-rec", attributes=back).items[0]
    check(p, "recovered and changed in one PATCH", (done.destroyed, done.provisioned, done.hard_limit_enabled, done.nfs.v3_enabled) == (False, 2 << 30, True, True), done)
    refused(p, "a destroyed file system still takes nothing but a recover", lambda: fb.file_systems.update_file_systems(name="old-share", attributes=M.FileSystem(provisioned=1 << 30)), "can only be recovered")


@flow((1, 8))
def directory_clear():
    p = "directory-clear"
    # purefb_ds's state=absent for the management service.
    cleared = M.DirectoryService(uris=[""], base_dn="", bind_user="", bind_password="", enabled=False)
    fb.directory_services.update_directory_services(names=["management"], directory_service=cleared)
    ds = fb.directory_services.list_directory_services(names=["management"]).items[0]
    check(p, "uris [''] with enabled=false clears the service", ds.uris == [] and ds.enabled is False and ds.base_dn is None and ds.bind_user is None and ds.bind_password is None, ds)
    refused(p, "enabling a service with no URIs refused", lambda: fb.directory_services.update_directory_services(names=["management"], directory_service=M.DirectoryService(enabled=True)), "no URIs")
    fb.directory_services.update_directory_services_roles(names=["readonly"], directory_service_role=M.DirectoryServiceRole(group="", group_base=""))
    role = fb.directory_services.list_directory_services_roles(names=["readonly"]).items[0]
    check(p, "a role's cleared group and group_base read back null", role.group is None and role.group_base is None, role)


@flow((1, 8))
def admin_password():
    p = "admin-old-password"
    change = lambda old: fb.admins.update_admins(names=["pureuser"], admin=M.Admin(password="Conf-New-Pass-1", old_password=old))  # noqa: E731
    refused(p, "a wrong old_password refused", lambda: change("not-the-password"), "old_password")
    refused(p, "no old_password refused", lambda: fb.admins.update_admins(names=["pureuser"], admin=M.Admin(password="Conf-New-Pass-1")), "old_password")
    change("pureuser")
    check(p, "changed with the current password", True)
    refused(p, "the previous password is no longer current", lambda: change("pureuser"), "old_password")
    listed = fb.admins.list_admins(names=["pureuser"]).items[0]
    check("secrets", "an admin password is never listed", "Conf-New-Pass-1" not in json.dumps(listed.to_dict(), default=str), listed)


@flow((1, 9))
def snmp():
    p = "snmp-blocks"
    managers = fb.snmp_managers.list_snmp_managers().items
    check(p, "a v2c manager lists a v3 block of nulls", len(managers) > 0 and all(m.v2c is not None and m.v3 is not None and m.v3.auth_passphrase is None and m.v3.user is None for m in managers if m.version == "v2c"), managers)
    v3 = M.SnmpV3(user="conf-snmp", auth_protocol="SHA", auth_passphrase="conf-auth-pass")
    fb.snmp_managers.create_snmp_managers(names=["conf-nms"], snmp_manager=M.SnmpManagerPost(host="nms3.example.com", notification="trap", version="v3", v3=v3))
    made = fb.snmp_managers.list_snmp_managers(names=["conf-nms"]).items[0]
    check(p, "a v3 manager lists a v2c block of nulls", made.v2c is not None and made.v2c.community is None and made.v3.user == "conf-snmp", made)
    agents = fb.snmp_agents.list_snmp_agents().items
    check(p, "the agent lists both blocks", len(agents) == 1 and agents[0].v2c is not None and agents[0].v3 is not None, agents)


@flow((1, 9))
def transfers_and_performance():
    p = "transfer-progress"
    by_snapshot = fb.file_system_snapshots.list_file_system_snapshots_transfer().items
    by_link = fb.file_system_replica_links.list_file_system_replica_link_transfer().items
    both = by_snapshot + by_link
    check(p, "both transfer listings parse, progress a fraction", len(by_snapshot) > 0 and len(by_link) > 0 and all(t.progress is None or 0 <= t.progress <= 1 for t in both), [(t.name, t.progress) for t in both])
    check(p, "a transfer in progress is part way", any(t.status == "in-progress" and 0 < t.progress < 1 for t in both), [(t.name, t.status, t.progress) for t in both])

    p = "replication-total"
    conns = fb.array_connections.list_array_connections_performance_replication()
    check(p, "array connections: total without asking", conns.total is not None and len(conns.total) == 1, conns.total)
    targets = fb.targets.list_targets_performance_replication()
    check(p, "targets: total without asking", targets.total is not None and len(targets.total) == 1, targets.total)
    # Ansible's purefb_info reads total[0].periodic; the SDK fills it from the wire key `async` in every 1.x version.
    sums = [r.total[0].periodic for r in (conns, targets) if r.total]
    check(p, "the totals carry their async figures", len(sums) == 2 and all(s is not None and s.transmitted_bytes_per_sec is not None for s in sums), sums)


@flow((1, 9))
def file_system_source():
    p = "fs-source"
    every = fb.file_systems.list_file_systems().items
    check(p, "every file system has a source (purefb_fs reads source.is_local)", len(every) > 0 and all(f.source is not None and f.source.is_local is not None for f in every), [(f.name, f.source) for f in every if f.source is None][:3])
    home = fb.file_systems.list_file_systems(names=["media"]).items[0]
    check(p, "a local file system is its own source", (home.source.name, home.source.is_local) == ("media", True), home.source)
    replica = session(DR_HOST).file_systems.list_file_systems(names=["home"]).items[0]
    check(p, "a replica target's source is the file system on the other array", (replica.source.name, replica.source.is_local, replica.source.location.name) == ("home", False, "fb-lab-01"), replica.source)


@flow((1, 9))
def array_connections():
    p = "connection-remote-name"
    dr = session(DR_HOST)
    refused(p, "a key the peer did not issue refused", lambda: fb.array_connections.create_array_connections(array_connection=M.ArrayConnectionPost(management_address=DR_HOST, connection_key="not-a-key")), "connection key")
    key = dr.array_connections.create_array_connections_connection_keys().items[0].connection_key
    # purefb_connect sends the address and the key, never the peer's name: the array learns it.
    made = fb.array_connections.create_array_connections(array_connection=M.ArrayConnectionPost(management_address=DR_HOST, connection_key=key, encrypted=True)).items[0]
    check(p, "remote.name is the peer array's name", made.remote.name == DR_NAME, made)
    link = fb.file_system_replica_links.create_file_system_replica_links(local_file_system_names=["vm-images"], remote_names=[DR_NAME], file_system_replica_link=M.FileSystemReplicaLink(policies=[])).items[0]
    check(p, "a file system replica link to it by array name", link.remote.name == DR_NAME, link)

    p = "connection-ca-group"
    check(p, "the new encrypted connection names its CA certificate group", made.ca_certificate_group is not None and made.ca_certificate_group.name == "_default_replication_certs", made)
    listed = fb.array_connections.list_array_connections().items
    check(p, "every encrypted connection names one", all(c.ca_certificate_group is not None for c in listed if c.encrypted), listed)


@flow((1, 9))
def bucket_link_to_target():
    p = "bucket-link-target"
    fb.targets.create_targets(names=["conf-s3"], target=M.TargetPost(address="s3.conf-target.example"))
    cred = M.ObjectStoreRemoteCredentials(access_key_id="AKIACONFTARGET", secret_access_key="conf-target-secret")
    fb.object_store_remote_credentials.create_object_store_remote_credentials(names=["conf-s3/creds"], remote_credentials=cred)
    link = fb.bucket_replica_links.create_bucket_replica_links(bucket_replica_link=M.BucketReplicaLinkPost(paused=False), local_bucket_names=["analytics-raw"], remote_bucket_names=["archive"], remote_credentials_names=["conf-s3/creds"]).items[0]
    check(p, "a bucket replica link to an S3 target", (link.remote.name, link.remote_credentials.name) == ("conf-s3", "conf-s3/creds"), link)
    listed = fb.bucket_replica_links.list_bucket_replica_links(remote_names=["conf-s3"]).items
    check(p, "listed by the target's name", [x.local_bucket.name for x in listed] == ["analytics-raw"], listed)


@flow((1, 8))
def buckets():
    p = "bucket-create-body"
    ref = M.Reference(name="analytics")
    # The SDK's keyword for the whole BucketPost body is `account` up to 1.8 and `bucket` from 1.9.
    keyword = "bucket" if V >= (1, 9) else "account"
    made = fb.buckets.create_buckets(names=["conf-bucket"], **{keyword: M.BucketPost(account=ref)}).items[0]
    check(p, "create with the SDK's own body", made.name == "conf-bucket" and made.account.name == "analytics")
    check(p, "listed", names(fb.buckets.list_buckets(names=["conf-bucket"]).items) == ["conf-bucket"])
    bad = M.BucketPost(account=M.Reference(name="no-such-account"))
    refused(p, "unknown account refused", lambda: fb.buckets.create_buckets(names=["conf-b2"], **{keyword: bad}), "does not exist")
    patch_keyword = "bucket" if V >= (1, 9) else "destroyed"
    fb.buckets.update_buckets(names=["conf-bucket"], **{patch_keyword: M.BucketPatch(destroyed=True)})
    fb.buckets.delete_buckets(names=["conf-bucket"])
    check(p, "destroyed and eradicated", fb.buckets.list_buckets(filter="name='conf-bucket'").items == [])


@flow((1, 8))
def network():
    p = "network-subnets"
    s = fb.subnets.create_subnets(names=["conf-net"], subnet=M.Subnet(prefix="10.77.0.0/24", gateway="10.77.0.1", vlan=77)).items[0]
    check("defaults", "new subnet enabled, 1500 MTU", s.enabled is True and s.mtu == 1500, s)
    i = fb.network_interfaces.create_network_interfaces(
        names=["conf-vip"], network_interface=M.NetworkInterface(address="10.77.0.10", services=["data"], type="vip")
    ).items[0]
    check("defaults", "new interface enabled", i.enabled is True, i)
    check(p, "interface inherits gateway, netmask, MTU, VLAN", (i.gateway, i.netmask, i.mtu, i.vlan) == ("10.77.0.1", "255.255.255.0", 1500, 77), i)
    if V >= (1, 9):  # NetworkInterface.subnet is in the SDK's models from 1.9
        check(p, "interface names its subnet", i.subnet.name == "conf-net", i)
    listed = fb.subnets.list_subnets(names=["conf-net"]).items[0]
    check(p, "subnet lists its interface", [x.name for x in listed.interfaces] == ["conf-vip"], listed)
    fb.subnets.update_subnets(names=["conf-net"], subnet=M.Subnet(mtu=9000))
    check(p, "subnet MTU shows on the interface", fb.network_interfaces.list_network_interfaces(names=["conf-vip"]).items[0].mtu == 9000)
    refused(p, "address outside every subnet refused", lambda: fb.network_interfaces.create_network_interfaces(names=["conf-x"], network_interface=M.NetworkInterface(address="192.168.99.9", services=["data"], type="vip")), "No subnet holds")
    refused(p, "subnet with interfaces cannot be deleted", lambda: fb.subnets.delete_subnets(names=["conf-net"]), "still has network interfaces")
    fb.network_interfaces.delete_network_interfaces(names=["conf-vip"])
    fb.subnets.delete_subnets(names=["conf-net"])
    check(p, "deleted", "conf-net" not in names(fb.subnets.list_subnets().items))

    p = "lag-ports"
    lag = fb.link_aggregation_groups.list_link_aggregation_groups(names=["uplink"]).items[0]
    before = lag.lag_speed
    grown = fb.link_aggregation_groups.update_link_aggregation_groups(
        names=["uplink"], link_aggregation_group=M.LinkAggregationGroupPatch(add_ports=[M.Reference(name="CH1.FM1.ETH2")])
    ).items[0]
    check(p, "add_ports adds a port and raises lag_speed", "CH1.FM1.ETH2" in [x.name for x in grown.ports] and grown.lag_speed > before, grown)
    shrunk = fb.link_aggregation_groups.update_link_aggregation_groups(
        names=["uplink"], link_aggregation_group=M.LinkAggregationGroupPatch(remove_ports=[M.Reference(name="CH1.FM1.ETH2")])
    ).items[0]
    check(p, "remove_ports removes it and lag_speed follows", shrunk.lag_speed == before, shrunk)
    refused(p, "a group subnets run on cannot be deleted", lambda: fb.link_aggregation_groups.delete_link_aggregation_groups(names=["uplink"]), "Subnets run on")


@flow((1, 8))
def certificates():
    p = "certificates-parsed"
    cert, key = fixture("cert.pem"), fixture("key.pem")
    made = fb.certificates.create_certificates(names=["conf-cert"], certificate=M.CertificatePost(certificate=cert, private_key=key, certificate_type="array")).items[0]
    check(p, "fields parsed from the PEM", (made.common_name, made.organization, made.country, made.key_size, made.issued_to, made.issued_by) == ("conf.example.com", "Conformance Inc", "NL", 2048, "conf.example.com", "conf.example.com"), made)
    check(p, "validity parsed", bool(made.valid_from) and bool(made.valid_to), made)
    listed = fb.certificates.list_certificates(names=["conf-cert"]).items[0]
    check("secrets", "certificate private key never listed", listed.private_key is None and listed.passphrase is None, listed)
    refused(p, "a key of another certificate refused", lambda: fb.certificates.create_certificates(names=["conf-bad"], certificate=M.CertificatePost(certificate=cert, private_key=fixture("other-key.pem"))), "does not belong")

    p = "association-certificate-groups"
    fb.certificate_groups.create_certificate_groups(names=["conf-group"])
    fb.certificate_groups.add_certificate_group_certificates(certificate_group_names=["conf-group"], certificate_names=["conf-cert"])
    one = fb.certificate_groups.list_certificate_group_certificates(certificate_group_names=["conf-group"]).items
    other = fb.certificates.list_certificate_certificate_groups(certificate_names=["conf-cert"]).items
    check(p, "listed from the group", [(m.group.name, m.member.name) for m in one] == [("conf-group", "conf-cert")], one)
    check(p, "listed from the certificate", [(m.group.name, m.member.name) for m in other] == [("conf-group", "conf-cert")], other)
    refused(p, "added twice refused", lambda: fb.certificates.add_certificate_certificate_groups(certificate_group_names=["conf-group"], certificate_names=["conf-cert"]), "already in")
    fb.certificates.remove_certificate_certificate_groups(certificate_group_names=["conf-group"], certificate_names=["conf-cert"])
    check(p, "removed", fb.certificate_groups.list_certificate_group_certificates(certificate_group_names=["conf-group"]).items == [])
    fb.certificate_groups.delete_certificate_groups(names=["conf-group"])
    fb.certificates.delete_certificates(names=["conf-cert"])


@flow((1, 8))
def directory():
    p = "directory-roles"
    roles = fb.directory_services.list_directory_services_roles().items
    check(p, "a role mapping per built-in role", names(roles) == ["array_admin", "ops_admin", "readonly", "storage_admin"], roles)
    fb.directory_services.update_directory_services_roles(names=["ops_admin"], directory_service_role=M.DirectoryServiceRole(group="noc", group_base="ou=groups,dc=example,dc=com"))
    check(p, "mapped to a group", fb.directory_services.list_directory_services_roles(names=["ops_admin"]).items[0].group == "noc")
    fb.directory_services.update_directory_services(names=["management"], directory_service=M.DirectoryService(bind_password="conf-bind-secret"))
    listed = fb.directory_services.list_directory_services(names=["management"]).items[0]
    check("secrets", "bind password masked", listed.bind_password == "****", listed.bind_password)

    p = "admins-cache"
    cached = fb.admins_cache.list_admin_cache(refresh=True, names=["mlee"]).items
    check(p, "refresh by name", [c.name for c in cached] == ["mlee"] and cached[0].role == "readonly", cached)
    fb.admins_cache.delete_admin_cache(names=["jdoe"])
    check(p, "cleared by name", "jdoe" not in names(fb.admins_cache.list_admin_cache().items))


@flow((1, 8))
def usage():
    p = "usage-not-quota"
    users = fb.usage_users.list_user_usage().items
    groups = fb.usage_groups.list_group_usage().items
    user_fs = {u.file_system.name for u in users}
    group_fs = {g.file_system.name for g in groups}
    check(p, "group usage wherever user usage exists", user_fs <= group_fs, (sorted(user_fs), sorted(group_fs)))
    check(p, "usage without a quota is listed", any(u.quota is None or u.user.name == "erin" for u in users))
    refused(p, "refusal speaks of usage", lambda: fb.usage_users.list_user_usage(file_system_names=["finance"], uids=[1001]), "usage")


@flow((1, 8))
def destroy_protocols():
    p = "destroy-protocols"
    fb.file_systems.create_file_systems(M.FileSystem(name="conf-fs", provisioned=1 << 30, nfs=M.NfsRule(v3_enabled=True), http=M.ProtocolRule(enabled=True)))
    refused(p, "destroy while serving refused", lambda: fb.file_systems.update_file_systems(name="conf-fs", attributes=M.FileSystem(destroyed=True)), "still serves")
    off = M.FileSystem(destroyed=True, nfs=M.NfsRule(v3_enabled=False, v4_1_enabled=False), smb=M.ProtocolRule(enabled=False), http=M.ProtocolRule(enabled=False))
    done = fb.file_systems.update_file_systems(name="conf-fs", attributes=off).items[0]
    check(p, "destroy with protocols off in the same PATCH (as Ansible)", done.destroyed is True, done)
    fb.file_systems.delete_file_systems(name="conf-fs")


@flow((1, 9))
def replication():
    p = "association-replica-link-policies"
    listed = fb.policies.list_policy_file_system_replica_links(local_file_system_names=["home"]).items
    check(p, "listed from the policy side", [(x.policy.name, x.member.name) for x in listed] == [("daily", "home")], listed)
    fb.policies.create_policies(names=["conf-hourly"], policy=M.Policy(enabled=True))
    fb.file_system_replica_links.create_file_system_replica_link_policies(policy_names=["conf-hourly"], local_file_system_names=["home"], remote_names=["fb-dr-01"])
    mirror = fb.file_system_replica_links.list_file_system_replica_link_policies(policy_names=["conf-hourly"]).items
    check(p, "added and listed from the link side", [(x.policy.name, x.link.remote.name) for x in mirror] == [("conf-hourly", "fb-dr-01")], mirror)
    fb.policies.delete_policy_file_system_replica_links(policy_names=["conf-hourly"], local_file_system_names=["home"], remote_names=["fb-dr-01"])
    check(p, "removed", fb.policies.list_policy_file_system_replica_links(policy_names=["conf-hourly"]).items == [])

    p = "targets"
    t = fb.targets.create_targets(names=["conf-target"], target=M.TargetPost(address="s3.conformance.example")).items[0]
    check(p, "new target connecting", t.status == "connecting", t)
    deadline = time.time() + 15
    status = t.status
    while status != "connected" and time.time() < deadline:
        time.sleep(0.25)
        status = fb.targets.list_targets(names=["conf-target"]).items[0].status
    check(p, "then connected", status == "connected", status)
    fb.targets.update_targets(names=["conf-target"], target=M.Target(name="conf-archive"))
    check(p, "renamed", names(fb.targets.list_targets(names=["conf-archive"]).items) == ["conf-archive"])

    p = "remote-credentials"
    cred = M.ObjectStoreRemoteCredentials(access_key_id="AKIACONFORMANCE", secret_access_key="conf-remote-secret")
    made = fb.object_store_remote_credentials.create_object_store_remote_credentials(names=["fb-dr-01/conf-creds"], remote_credentials=cred).items[0]
    check(p, "names its array connection", made.remote.name == "fb-dr-01" and made.remote.resource_type == "array-connections", made)
    listed = fb.object_store_remote_credentials.list_object_store_remote_credentials(names=["fb-dr-01/conf-creds"]).items[0]
    check("secrets", "remote credential secret key masked", listed.secret_access_key == "****", listed.secret_access_key)
    refused(p, "unknown remote refused", lambda: fb.object_store_remote_credentials.create_object_store_remote_credentials(names=["nowhere/c"], remote_credentials=cred), "no array connection or target")

    key = fb.array_connections.create_array_connections_connection_keys().items[0]
    again = fb.array_connections.list_array_connections_connection_keys().items[0]
    check("secrets", "connection key shown once, then ****", key.connection_key != "****" and again.connection_key == "****", again)

    p = "demotion"
    refused(p, "demotion without discard_non_snapshotted_data refused", lambda: fb.file_systems.update_file_systems(name="home", attributes=M.FileSystem(requested_promotion_state="demoted")), "discard_non_snapshotted_data")
    refused(p, "demotion without a replica link refused", lambda: fb.file_systems.update_file_systems(name="media", attributes=M.FileSystem(requested_promotion_state="demoted"), discard_non_snapshotted_data=True), "no replica link")
    fb.file_systems.update_file_systems(name="home", attributes=M.FileSystem(requested_promotion_state="demoted"), discard_non_snapshotted_data=True)
    fs = fb.file_systems.list_file_systems(names=["home"]).items[0]
    check(p, "demoted shows in promotion_status and is not writable", (fs.promotion_status, fs.writable) == ("demoted", False), fs)
    refused(p, "a demoted file system cannot be made writable", lambda: fb.file_systems.update_file_systems(name="home", attributes=M.FileSystem(writable=True)), "demoted")
    fb.file_systems.update_file_systems(name="home", attributes=M.FileSystem(requested_promotion_state="promoted"))
    check(p, "promoted again", fb.file_systems.list_file_systems(names=["home"]).items[0].promotion_status == "promoted")

    p = "destroy-replica-link"
    off = M.FileSystem(destroyed=True, nfs=M.NfsRule(v3_enabled=False, v4_1_enabled=False), smb=M.ProtocolRule(enabled=False), http=M.ProtocolRule(enabled=False))
    refused(p, "destroy with a replica link needs delete_link_on_eradication", lambda: fb.file_systems.update_file_systems(name="projects", attributes=off), "delete_link_on_eradication")
    done = fb.file_systems.update_file_systems(name="projects", attributes=off, delete_link_on_eradication=True).items[0]
    check(p, "destroyed with delete_link_on_eradication=true", done.destroyed is True, done)


@flow((1, 12))
def object_store_policies():
    p = "access-policies"
    builtin = names(fb.object_store_access_policies.list_object_store_access_policies().items)
    check(p, "built-in policies shipped", {"pure:policy/full-access", "pure:policy/bucket-list", "pure:policy/object-read"} <= set(builtin), builtin)
    fb.object_store_users.create_object_store_users(names=["analytics/conf-user"])
    fb.object_store_access_policies.add_object_store_access_policies_object_store_users(policy_names=["pure:policy/object-read"], member_names=["analytics/conf-user"])
    one = fb.object_store_access_policies.list_object_store_access_policies_object_store_users(member_names=["analytics/conf-user"]).items
    other = fb.object_store_users.list_object_store_users_object_store_access_policies(policy_names=["pure:policy/object-read"]).items
    check("association-access-policy-users", "listed from the policy", [(x.policy.name, x.member.name) for x in one] == [("pure:policy/object-read", "analytics/conf-user")], one)
    check("association-access-policy-users", "listed from the user", ("pure:policy/object-read", "analytics/conf-user") in [(x.policy.name, x.member.name) for x in other], other)
    fb.object_store_users.remove_object_store_users_object_store_access_policies(policy_names=["pure:policy/object-read"], member_names=["analytics/conf-user"])
    check("association-access-policy-users", "removed", fb.object_store_access_policies.list_object_store_access_policies_object_store_users(member_names=["analytics/conf-user"]).items == [])


@flow((1, 12))
def keytabs_and_clients():
    p = "keytabs-from-directory"
    # The demo array is joined as ad1 and an array joins one domain at a time: leave it first.
    fb.active_directory.delete_active_directory(names=["ad1"])
    fb.active_directory.create_active_directory(names=["conf-ad"], active_directory=M.ActiveDirectoryPost(domain="corp.example.com", user="joiner", password="conf-join-secret", computer_name="CONFFB"))
    ad = fb.active_directory.list_active_directory(names=["conf-ad"]).items[0]
    check(p, "account listed with its principals", "nfs/conffb.corp.example.com" in ad.service_principal_names, ad)
    made = fb.keytabs.create_keytabs(keytab=M.KeytabPost(source=M.Reference(name="conf-ad")), name_prefixes=["conf"]).items
    check(p, "keytabs created from the account", [k.name for k in made][:2] == ["conf.1", "conf.2"] and made[0].realm == "CORP.EXAMPLE.COM", made)
    fb.keytabs.delete_keytabs(names=["conf.1"])
    check(p, "deleted by name", "conf.1" not in names(fb.keytabs.list_keytabs().items))

    p = "api-clients"
    c = fb.api_clients.create_api_clients(names=["conf-client"], api_client=M.ApiClientPost(max_role=M.FixedReferenceNoResourceType(name="readonly"), public_key=fixture("public.pem"))).items[0]
    check(p, "created disabled with a key_id", c.enabled is False and bool(c.key_id), c)
    c = fb.api_clients.update_api_clients(names=["conf-client"], api_clients=M.ApiClientPatch(enabled=True)).items[0]
    check(p, "enabled", c.enabled is True)

    p = "time-zones"
    zones = names(fb.arrays.list_supported_time_zones().items)
    check(p, "IANA time zones", len(zones) > 300 and "Europe/Amsterdam" in zones, len(zones))


for since, fn in FLOWS:
    if V < since:
        continue
    try:
        fn()
    except Exception as e:  # a flow that breaks is a failed check, not the end of the run
        body = getattr(e, "body", "")
        report("flow", fn.__name__, False, f"{type(e).__name__}: {e} {body} {traceback.format_exc()[-800:]}")
