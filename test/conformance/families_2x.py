"""Conformance of the 2.x-only families (issue 42): Pure's own REST 2.x SDK (py-pure-client 1.90.0) lists and
changes each family it knows on a simulated demo array, and reads the array's rules in its answers.

Usage: families_2x.py HOST VERSION API_TOKEN

Each check prints one JSON line, as flows_2x.py: {"version", "point", "check", "ok", "detail"}. A flow that raises
is a failed check and the next flow still runs.
"""
import importlib
import json
import sys
import traceback

import urllib3

urllib3.disable_warnings()

from pypureclient import flashblade  # noqa: E402

HOST, VERSION, TOKEN = sys.argv[1:4]
M = importlib.import_module(f"pypureclient.flashblade.FB_{VERSION.replace('.', '_')}.models")
HOUR = 3_600_000
YEAR = 365 * 24 * HOUR


def report(point, check, ok, detail=""):
    print(json.dumps({"version": VERSION, "point": point, "check": check, "ok": bool(ok), "detail": str(detail)[:500]}))
    sys.stdout.flush()


def valid(r):
    return isinstance(r, flashblade.ValidResponse)


def why(r):
    return r if valid(r) else (r.status_code, [(e.context, e.message) for e in (r.errors or [])])


def ok(r):
    if not valid(r):
        raise RuntimeError(f"refused: {why(r)}")
    return list(r.items or [])


def refused(point, name, r, text):
    if valid(r):
        report(point, name, False, "accepted, expected a refusal")
        return
    said = " ".join(e.message or "" for e in (r.errors or []))
    report(point, name, r.status_code == 400 and text.lower() in said.lower(), f"{r.status_code} {said}")


def names(items):
    return sorted(i.name for i in items)


fb = flashblade.Client(HOST, version=VERSION, api_token=TOKEN, verify_ssl=False, timeout=(10, 30), retries=0)
FLOWS = []


def flow(fn):
    FLOWS.append(fn)
    return fn


@flow
def nfs_export_policies():
    p = "nfs-export-policies"
    seeded = ok(fb.get_nfs_export_policies())
    report(p, "the demo's policies are listed", names(seeded) == ["default", "lab-clients", "retired-clients"], names(seeded))
    rules = ok(fb.get_nfs_export_policies_rules(policy_names=["lab-clients"]))
    report(p, "rules in index order", [(r.index, r.client, r.permission) for r in rules] == [(1, "10.20.0.0/16", "rw"), (2, "*.build.example.com", "ro")], rules)
    ok(fb.post_nfs_export_policies(names=["conf-exp"], policy=M.NfsExportPolicyPost(enabled=True)))
    first = ok(fb.post_nfs_export_policies_rules(policy_names=["conf-exp"], rule=M.NfsExportPolicyRule(client="10.1.0.0/16", permission="rw", access="no-squash")))
    second = ok(fb.post_nfs_export_policies_rules(policy_names=["conf-exp"], before_rule_name=first[0].name, rule=M.NfsExportPolicyRule(client="10.1.2.3", permission="ro")))
    listed = ok(fb.get_nfs_export_policies_rules(policy_names=["conf-exp"]))
    report(p, "a rule put before another takes its index", [(r.name, r.index) for r in listed] == [(second[0].name, 1), (first[0].name, 2)], listed)
    ok(fb.patch_nfs_export_policies_rules(names=[second[0].name], rule=M.NfsExportPolicyRulePatch(permission="rw")))
    report(p, "a rule changed", [r.permission for r in ok(fb.get_nfs_export_policies_rules(names=[second[0].name]))] == ["rw"])
    refused(p, "a bad client is refused", fb.post_nfs_export_policies_rules(policy_names=["conf-exp"], rule=M.NfsExportPolicyRule(client="10.0.0.0/99")), "prefix")
    ok(fb.delete_nfs_export_policies_rules(names=[first[0].name]))
    report(p, "a rule deleted", len(ok(fb.get_nfs_export_policies_rules(policy_names=["conf-exp"]))) == 1)
    ok(fb.patch_nfs_export_policies(names=["conf-exp"], policy=M.NfsExportPolicy(enabled=False)))
    report(p, "a policy disabled", [x.enabled for x in ok(fb.get_nfs_export_policies(names=["conf-exp"]))] == [False])
    refused(p, "a policy an export uses cannot be deleted", fb.delete_nfs_export_policies(names=["lab-clients"]), "in use")
    ok(fb.delete_nfs_export_policies(names=["conf-exp"]))
    report(p, "a policy deleted", ok(fb.get_nfs_export_policies(filter="name='conf-exp'")) == [])


@flow
def file_system_exports():
    p = "file-system-exports"
    listed = ok(fb.get_file_system_exports())
    report(p, "the demo's exports are listed", names(listed) == ["home", "media", "projects"], names(listed))
    made = ok(fb.post_file_system_exports(member_names=["builds"], policy_names=["lab-clients"], file_system_export=M.FileSystemExportPost(export_name="builds")))
    report(p, "an export made", made and (made[0].member.name, made[0].policy.name, made[0].policy_type) == ("builds", "lab-clients", "nfs"), made)
    refused(p, "an export name is unique", fb.post_file_system_exports(member_names=["logs"], policy_names=["default"], file_system_export=M.FileSystemExportPost(export_name="builds")), "already exists")
    ok(fb.delete_file_system_exports(names=["builds"]))
    report(p, "an export deleted", names(ok(fb.get_file_system_exports())) == ["home", "media", "projects"])


@flow
def smb_policies():
    p = "smb-policies"
    share = ok(fb.get_smb_share_policies_rules(policy_names=["smb-default"]))
    report(p, "the demo's share rule", [(r.principal, r.full_control) for r in share] == [("Everyone", "allow")], share)
    clients = ok(fb.get_smb_client_policies_rules(policy_names=["smb-clients"]))
    report(p, "the demo's client rule", [r.client for r in clients] == ["*"], clients)
    ok(fb.post_smb_share_policies(names=["conf-share"], policy=M.SmbSharePolicyPost(enabled=True)))
    ok(fb.post_smb_share_policies_rules(policy_names=["conf-share"], rule=M.SmbSharePolicyRulePost(principal="EXAMPLE\\auditors", read="allow")))
    report(p, "a share rule added", [r.principal for r in ok(fb.get_smb_share_policies_rules(policy_names=["conf-share"]))] == ["EXAMPLE\\auditors"])
    ok(fb.post_smb_client_policies(names=["conf-clients"], policy=M.SmbClientPolicyPost(enabled=True)))
    ok(fb.post_smb_client_policies_rules(policy_names=["conf-clients"], rule=M.SmbClientPolicyRulePost(client="10.30.0.0/16", permission="ro", encryption="required")))
    report(p, "a client rule added", [(r.client, r.index) for r in ok(fb.get_smb_client_policies_rules(policy_names=["conf-clients"]))] == [("10.30.0.0/16", 1)])
    refused(p, "a share policy an export uses cannot be deleted", fb.delete_smb_share_policies(names=["smb-default"]), "in use")
    ok(fb.delete_smb_share_policies(names=["conf-share"]))
    ok(fb.delete_smb_client_policies(names=["conf-clients"]))
    report(p, "policies deleted", ok(fb.get_smb_client_policies(filter="name='conf-clients'")) == [])


@flow
def network_access():
    p = "network-access-policies"
    listed = ok(fb.get_network_access_policies())
    report(p, "the built-in policy", names(listed) == ["default"], listed)
    rules = ok(fb.get_network_access_policies_rules(policy_names=["default"]))
    report(p, "allows everyone", [(r.client, r.effect) for r in rules] == [("*", "allow")], rules)
    members = ok(fb.get_network_access_policies_members())
    report(p, "the array is its member", [(m.policy.name, m.member.name) for m in members] == [("default", "fb-lab-01")], members)
    ok(fb.patch_network_access_policies_rules(names=[rules[0].name], rule=M.NetworkAccessPolicyRule(client="10.0.0.0/8")))
    report(p, "a rule changed", [r.client for r in ok(fb.get_network_access_policies_rules(names=[rules[0].name]))] == ["10.0.0.0/8"])


@flow
def qos_policies():
    p = "qos-policies"
    listed = ok(fb.get_qos_policies())
    report(p, "the demo's policies", [(q.name, q.max_total_bytes_per_sec, q.max_total_ops_per_sec) for q in listed] == [("qos-gold", 0, 0), ("qos-bronze", 3_000_000, 5000), ("qos-archive", 0, 0)], listed)
    members = ok(fb.get_qos_policies_file_systems(policy_names=["qos-bronze"]))
    report(p, "scratch is in qos-bronze", [m.member.name for m in members] == ["scratch"], members)
    ok(fb.post_qos_policies(names=["conf-qos"], policy=M.QosPolicy(max_total_ops_per_sec=100)))
    ok(fb.post_qos_policies_members(policy_names=["conf-qos"], member_names=["logs"], member_types=["file-systems"]))
    report(p, "a member added", [m.member.name for m in ok(fb.get_qos_policies_members(policy_names=["conf-qos"]))] == ["logs"])
    perf = ok(fb.get_file_systems_performance(names=["logs"]))
    report(p, "its performance is within the limit", perf and perf[0].reads_per_sec + perf[0].writes_per_sec + perf[0].others_per_sec <= 100, perf)
    refused(p, "a policy with members cannot be deleted", fb.delete_qos_policies(names=["conf-qos"]), "remove its members")
    ok(fb.delete_qos_policies_members(policy_names=["conf-qos"], member_names=["logs"], member_types=["file-systems"]))
    ok(fb.patch_qos_policies(names=["conf-qos"], policy=M.QosPolicy(enabled=False)))
    ok(fb.delete_qos_policies(names=["conf-qos"]))
    report(p, "deleted", ok(fb.get_qos_policies(filter="name='conf-qos'")) == [])


@flow
def worm_and_holds():
    p = "worm-legal-holds"
    worm = ok(fb.get_worm_data_policies(names=["worm-7y"]))
    report(p, "worm-7y is locked for 7 years", worm and (worm[0].retention_lock, worm[0].min_retention, worm[0].default_retention) == ("locked", 7 * YEAR, 7 * YEAR), worm)
    members = ok(fb.get_worm_data_policies_members(policy_names=["worm-7y"]))
    report(p, "it retains finance", [m.member.name for m in members] == ["finance"], members)
    refused(p, "retained finance cannot be destroyed", fb.patch_file_systems(names=["finance"], file_system=M.FileSystemPatch(destroyed=True, nfs=M.NfsPatch(v3_enabled=False, v4_1_enabled=False), smb=M.Smb(enabled=False), http=M.Http(enabled=False))), "retained")
    refused(p, "a locked policy cannot be unlocked", fb.patch_worm_data_policies(names=["worm-7y"], policy=M.WormDataPolicy(retention_lock="unlocked")), "locked")
    ok(fb.post_worm_data_policies(names=["conf-worm"], policy=M.WormDataPolicy(mode="regular", min_retention=HOUR, default_retention=HOUR, max_retention=2 * HOUR)))
    ok(fb.patch_worm_data_policies(names=["conf-worm"], policy=M.WormDataPolicy(max_retention=3 * HOUR)))
    ok(fb.delete_worm_data_policies(names=["conf-worm"]))
    report(p, "a WORM policy made, changed and deleted", names(ok(fb.get_worm_data_policies())) == ["worm-7y", "worm-trial"])
    holds = ok(fb.get_legal_holds())
    report(p, "the demo's hold", names(holds) == ["hold-2024-closed", "hold-audit-2026"], holds)
    held = ok(fb.get_legal_holds_held_entities(names=["hold-audit-2026"]))
    report(p, "it holds /ledgers/2025 of finance", [(e.file_system.name, e.path) for e in held] == [("finance", "/ledgers/2025")], held)
    ok(fb.post_legal_holds(names=["conf-hold"], hold=M.LegalHold(description="conformance")))
    ok(fb.post_legal_holds_held_entities(names=["conf-hold"], file_system_names=["logs"], paths=["/app"], recursive=True))
    refused(p, "a hold holding paths cannot be deleted", fb.delete_legal_holds(names=["conf-hold"]), "release")
    ok(fb.patch_legal_holds_held_entities(names=["conf-hold"], file_system_names=["logs"], paths=["/app"], released=True))
    ok(fb.patch_legal_holds(names=["conf-hold"], hold=M.LegalHold(description="released")))
    ok(fb.delete_legal_holds(names=["conf-hold"]))
    report(p, "a hold put, released and deleted", names(ok(fb.get_legal_holds())) == ["hold-2024-closed", "hold-audit-2026"])


@flow
def maintenance_windows():
    p = "maintenance-windows"
    listed = ok(fb.get_maintenance_windows())
    report(p, "fw-upgrade is planned 4 hours long", [(w.name, w.expires - w.created) for w in listed] == [("fw-upgrade", 4 * HOUR)], listed)
    made = ok(fb.post_maintenance_windows(names=["array"], maintenance_window=M.MaintenanceWindowPost(timeout=HOUR)))
    report(p, "a window opened for an hour", made and made[0].expires - made[0].created == HOUR, made)
    ok(fb.delete_maintenance_windows(names=["array"]))
    report(p, "closed early", names(ok(fb.get_maintenance_windows())) == ["fw-upgrade"])


@flow
def tenancy_and_support():
    p = "sessions-diagnostics-realms-fleets"
    sessions = ok(fb.get_sessions())
    report(p, "the SDK's own login is a session", any(s.event == "login" and s.user == "pureuser" for s in sessions), sessions)
    runs = ok(fb.get_support_diagnostics())
    report(p, "the demo's diagnostics run completed", [r.status for r in runs] == ["completed"], runs)
    report(p, "its details are readable", len(ok(fb.get_support_diagnostics_details())) > 0)
    report(p, "the demo's realms", names(ok(fb.get_realms())) == ["finance-realm", "realm-retired"])
    report(p, "a realm's space by its name", names(ok(fb.get_realms_space(names=["finance-realm"]))) == ["finance-realm"])
    by_class = ok(fb.get_realms_space_storage_classes(names=["finance-realm"]))
    report(p, "its space by storage class", [c.storage_class for c in by_class] == ["S500X-S", "S500X-A"], by_class)
    defaults = ok(fb.get_realms_defaults(realm_names=["finance-realm"]))
    report(p, "its defaults", [d.realm.name for d in defaults] == ["finance-realm"], defaults)
    ok(fb.post_realms(names=["conf-realm"], without_default_access_list=False))
    refused(p, "a realm is destroyed before it is deleted", fb.delete_realms(names=["conf-realm"]), "not destroyed")
    ok(fb.patch_realms(names=["conf-realm"], realm=M.RealmPatch(destroyed=True)))
    ok(fb.delete_realms(names=["conf-realm"]))
    report(p, "a realm made and deleted", names(ok(fb.get_realms())) == ["finance-realm", "realm-retired"])
    report(p, "the demo's fleet", names(ok(fb.get_fleets())) == ["fleet-prod"])
    members = ok(fb.get_fleets_members())
    report(p, "the array is its only member", [(m.member.name, m.status) for m in members] == [("fb-lab-01", "joined")], members)
    refused(p, "an array is in one fleet", fb.post_fleets(names=["conf-fleet"]), "at most one")
    ok(fb.post_node_groups(names=["conf-ng"]))
    report(p, "node groups", names(ok(fb.get_node_groups())) == ["conf-ng", "ng-a", "ng-archive"])
    ok(fb.delete_node_groups(names=["conf-ng"]))


for fn in FLOWS:
    try:
        fn()
    except Exception as e:  # a flow that breaks is a failed check, not the end of the run
        report("flow", fn.__name__, False, f"{type(e).__name__}: {e} {traceback.format_exc()[-600:]}")
