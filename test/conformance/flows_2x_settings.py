"""The rest of flows.py through the 2.x SDK: an empty PATCH, a destroyed file system that takes only a recover,
network defaults and refusals, link aggregation ports, certificate groups, user and group usage, SNMP blocks,
the admin password's refusals and the time zones.
"""
from harness_2x import VERSION, M, fixture, flow, names, ok, protocols_off, raw, refused, report, session


@flow((2, 0))
def empty_patch_and_recover():
    p = "patch-no-body"
    fb = session()
    done = ok(fb.patch_file_systems(names=["media"], file_system=M.FileSystemPatch()))
    report(p, "an empty model is taken as {}", [f.name for f in done] == ["media"], done)
    r = raw("PATCH", f"{VERSION}/file-systems?names=media")
    report(p, "a PATCH with no body at all answers 200", r.status == 200, f"{r.status} {r.data[:200]}")

    p = "recover-with-settings"
    ok(fb.post_file_systems(names=["conf2-rec"], file_system=M.FileSystemPost(provisioned=1 << 30)))
    ok(fb.patch_file_systems(names=["conf2-rec"], file_system=M.FileSystemPatch(destroyed=True, **protocols_off())))
    refused(p, "a destroyed file system takes nothing but a recover", fb.patch_file_systems(names=["conf2-rec"], file_system=M.FileSystemPatch(provisioned=2 << 30)), "can only be recovered")
    back = ok(fb.patch_file_systems(names=["conf2-rec"], file_system=M.FileSystemPatch(destroyed=False, provisioned=2 << 30, hard_limit_enabled=True)))
    report(p, "recovered and changed in one PATCH", back and (back[0].destroyed, back[0].provisioned, back[0].hard_limit_enabled) == (False, 2 << 30, True), back)


@flow((2, 0))
def network_defaults():
    p = "defaults"
    fb = session()
    ok(fb.post_subnets(names=["conf2-def"], subnet=M.Subnet(prefix="10.79.0.0/24", gateway="10.79.0.1")))
    i = ok(fb.post_network_interfaces(names=["conf2-def-vip"], network_interface=M.NetworkInterface(address="10.79.0.10", services=["data"], type="vip")))
    # The SDK's NetworkInterface.subnet is a plain dict (Dict[str, Any]), not a reference model.
    report(p, "a new interface is enabled, names its subnet and inherits its netmask", i and (i[0].enabled, (i[0].subnet or {}).get("name"), i[0].netmask) == (True, "conf2-def", "255.255.255.0"), i)
    s = ok(fb.get_subnets(names=["conf2-def"]))
    report(p, "the subnet lists its interface", s and [x.name for x in s[0].interfaces] == ["conf2-def-vip"], s)
    refused(p, "an address outside every subnet refused", fb.post_network_interfaces(names=["conf2-x"], network_interface=M.NetworkInterface(address="192.168.99.9", services=["data"], type="vip")), "No subnet holds")
    ok(fb.delete_network_interfaces(names=["conf2-def-vip"]))
    ok(fb.delete_subnets(names=["conf2-def"]))

    p = "lag-ports"
    before = ok(fb.get_link_aggregation_groups(names=["uplink"]))[0].lag_speed
    port = [M.Reference(name="CH1.FM1.ETH2")]
    grown = ok(fb.patch_link_aggregation_groups(names=["uplink"], link_aggregation_group=M.LinkAggregationGroupPatch(add_ports=port)))
    report(p, "add_ports adds a port and raises lag_speed", grown and "CH1.FM1.ETH2" in [x.name for x in grown[0].ports] and grown[0].lag_speed > before, grown)
    shrunk = ok(fb.patch_link_aggregation_groups(names=["uplink"], link_aggregation_group=M.LinkAggregationGroupPatch(remove_ports=port)))
    report(p, "remove_ports removes it and lag_speed follows", shrunk and shrunk[0].lag_speed == before, shrunk)
    refused(p, "a group subnets run on cannot be deleted", fb.delete_link_aggregation_groups(names=["uplink"]), "Subnets run on")


@flow((2, 0))
def certificate_groups():
    p = "association-certificate-groups"
    fb = session()
    ok(fb.post_certificates(names=["conf2-gcert"], certificate=M.CertificatePost(certificate=fixture("cert.pem"), private_key=fixture("key.pem"), certificate_type="array")))
    # CertificatePost carries private_key from 2.15; before, the SDK's model drops it.
    if "private_key" in M.CertificatePost.__fields__:
        refused("certificates-parsed", "a key of another certificate refused", fb.post_certificates(names=["conf2-bad"], certificate=M.CertificatePost(certificate=fixture("cert.pem"), private_key=fixture("other-key.pem"), certificate_type="array")), "does not belong")
    ok(fb.post_certificate_groups(names=["conf2-group"]))
    ok(fb.post_certificate_groups_certificates(certificate_group_names=["conf2-group"], certificate_names=["conf2-gcert"]))
    one = ok(fb.get_certificate_groups_certificates(certificate_group_names=["conf2-group"]))
    other = ok(fb.get_certificates_certificate_groups(certificate_names=["conf2-gcert"]))
    report(p, "listed from the group", [(m.group.name, m.member.name) for m in one] == [("conf2-group", "conf2-gcert")], one)
    report(p, "listed from the certificate", [(m.group.name, m.member.name) for m in other] == [("conf2-group", "conf2-gcert")], other)
    refused(p, "added twice refused", fb.post_certificates_certificate_groups(certificate_group_names=["conf2-group"], certificate_names=["conf2-gcert"]), "already in")
    ok(fb.delete_certificates_certificate_groups(certificate_group_names=["conf2-group"], certificate_names=["conf2-gcert"]))
    report(p, "removed", ok(fb.get_certificate_groups_certificates(certificate_group_names=["conf2-group"])) == [])
    ok(fb.delete_certificate_groups(names=["conf2-group"]))
    ok(fb.delete_certificates(names=["conf2-gcert"]))


@flow((2, 0))
def usage_snmp_admin_zones():
    p = "usage-not-quota"
    fb = session()
    users = ok(fb.get_usage_users(file_system_names=["home"]))
    groups = ok(fb.get_usage_groups(file_system_names=["home"]))
    report(p, "user and group usage of a file system", users and groups and {u.file_system.name for u in users} == {"home"}, (users[:2], groups[:2]))
    refused(p, "a refusal speaks of usage", fb.get_usage_users(file_system_names=["finance"], uids=[1001]), "usage")

    p = "snmp-blocks"
    managers = ok(fb.get_snmp_managers())
    report(p, "a v2c manager lists a v3 block of nulls", any(m.version == "v2c" for m in managers) and all(m.v3 is not None and m.v3.user is None for m in managers if m.version == "v2c"), managers)
    agents = ok(fb.get_snmp_agents())
    report(p, "the agent lists both blocks", len(agents) == 1 and agents[0].v2c is not None and agents[0].v3 is not None, agents)

    p = "admin-old-password"
    refused(p, "no old_password refused", fb.patch_admins(names=["pureuser"], admin=M.AdminPatch(password="Conf2-Other-Pass")), "old_password")

    p = "time-zones"
    zones = names(ok(fb.get_arrays_supported_time_zones()))
    report(p, "IANA time zones", len(zones) > 300 and "Europe/Amsterdam" in zones, len(zones))
