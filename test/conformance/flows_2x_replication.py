"""The replication flows of flows.py through the 2.x SDK: a DR peer (array connection by connection key to a
second simulated array), file-system replica links and their policies, remote credentials, a bucket replica
link to an S3 target, demotion, and destroying a replicated file system.
"""
from harness_2x import DR_HOST, DR_NAME, M, flow, ok, protocols_off, refused, report, session, valid, why


@flow((2, 0))
def array_connections():
    p = "connection-remote-name"
    fb, dr = session(), session(DR_HOST)
    post = lambda key: fb.post_array_connections(array_connection=M.ArrayConnectionPost(management_address=DR_HOST, connection_key=key, encrypted=True))  # noqa: E731
    refused(p, "a key the peer did not issue refused", post("not-a-key"), "connection key")
    key = ok(dr.post_array_connections_connection_key())[0].connection_key
    again = ok(dr.get_array_connections_connection_key())
    report("secrets", "the connection key is shown once, then ****", key not in (None, "****") and [k.connection_key for k in again] == ["****"], again)
    # purefb_connect sends the address and the key, never the peer's name: the array learns it.
    made = ok(post(key))
    report(p, "remote.name is the peer array's name", made and made[0].remote.name == DR_NAME, made)
    listed = ok(fb.get_array_connections(remote_names=[DR_NAME]))
    report(p, "listed by the peer's name", [c.remote.name for c in listed] == [DR_NAME], listed)

    p = "connection-ca-group"
    report(p, "the new encrypted connection names its CA certificate group", made and made[0].ca_certificate_group is not None and made[0].ca_certificate_group.name == "_default_replication_certs", made)
    every = ok(fb.get_array_connections())
    report(p, "every encrypted connection names one", all(c.ca_certificate_group is not None for c in every if c.encrypted), every)

    p = "fs-replica-link"
    link = ok(fb.post_file_system_replica_links(local_file_system_names=["vm-images"], remote_names=[DR_NAME], file_system_replica_link=M.FileSystemReplicaLink()))
    report(p, "a file system replica link to the peer by its name", link and (link[0].local_file_system.name, link[0].remote.name, link[0].direction) == ("vm-images", DR_NAME, "outbound"), link)
    listed = ok(fb.get_file_system_replica_links(local_file_system_names=["vm-images"]))
    report(p, "listed from the file system", [x.remote.name for x in listed] == [DR_NAME], listed)
    report(p, "the remote file system is named after the local one", link and link[0].remote_file_system.name == "vm-images", link)
    if not hasattr(fb, "delete_file_system_replica_links"):  # DELETE /file-system-replica-links is 2.10's
        return
    ok(fb.delete_file_system_replica_links(local_file_system_names=["vm-images"], remote_names=[DR_NAME]))
    # Selecting by a name no link has is a 400 on the array, so read the whole list.
    report(p, "deleted", "vm-images" not in [x.local_file_system.name for x in ok(fb.get_file_system_replica_links())])
    ok(fb.delete_array_connections(remote_names=[DR_NAME]))
    report(p, "the connection deleted once no link uses it", DR_NAME not in [c.remote.name for c in ok(fb.get_array_connections())])


@flow((2, 0))
def replica_link_policies():
    p = "association-replica-link-policies"
    fb = session()
    listed = ok(fb.get_policies_file_system_replica_links(local_file_system_names=["home"]))
    report(p, "listed from the policy side", [(x.policy.name, x.member.name) for x in listed] == [("daily", "home")], listed)
    ok(fb.post_policies(names=["conf2-link-hourly"], policy=M.Policy(enabled=True)))
    ok(fb.post_file_system_replica_links_policies(policy_names=["conf2-link-hourly"], local_file_system_names=["home"], remote_names=["fb-dr-01"]))
    mirror = ok(fb.get_file_system_replica_links_policies(policy_names=["conf2-link-hourly"]))
    report(p, "added and listed from the link side", [(x.policy.name, x.member.name) for x in mirror] == [("conf2-link-hourly", "home")], mirror)
    ok(fb.delete_policies_file_system_replica_links(policy_names=["conf2-link-hourly"], local_file_system_names=["home"], remote_names=["fb-dr-01"]))
    report(p, "removed", ok(fb.get_policies_file_system_replica_links(policy_names=["conf2-link-hourly"])) == [])


@flow((2, 0))
def transfers_and_performance():
    p = "transfer-progress"
    fb = session()
    both = ok(fb.get_file_system_snapshots_transfer()) + ok(fb.get_file_system_replica_links_transfer())
    report(p, "both transfer listings parse, progress a fraction", both and all(t.progress is None or 0 <= t.progress <= 1 for t in both), [(t.name, t.progress) for t in both])
    report(p, "a transfer in progress is part way", any(t.status == "in-progress" and 0 < t.progress < 1 for t in both), [(t.name, t.status, t.progress) for t in both])
    p = "replication-total"
    for label, call in (("array connections", fb.get_array_connections_performance_replication), ("targets", fb.get_targets_performance_replication)):
        r = call()
        total = list(r.total or []) if valid(r) else why(r)
        # Ansible's purefb_info reads total[0].periodic; 1.x's wire name for it was `async`.
        report(p, f"{label}: one total row with its periodic figures", len(total) == 1 and total[0].periodic is not None, total)


@flow((2, 0))
def remote_credentials_and_bucket_link():
    p = "remote-credentials"
    fb = session()
    ok(fb.post_targets(names=["conf2-s3"], target=M.TargetPost(address="s3.conf2-target.example")))
    cred = M.ObjectStoreRemoteCredentialsPost(access_key_id="AKIACONF2TARGET", secret_access_key="conf2-target-secret")
    made = ok(fb.post_object_store_remote_credentials(names=["conf2-s3/creds"], remote_credentials=cred))
    report(p, "names its target", made and (made[0].remote.name, made[0].remote.resource_type) == ("conf2-s3", "targets"), made)
    listed = ok(fb.get_object_store_remote_credentials(names=["conf2-s3/creds"]))
    report("secrets", "the remote credentials' secret key is masked", [c.secret_access_key for c in listed] == ["****"], listed)
    refused(p, "an unknown remote refused", fb.post_object_store_remote_credentials(names=["nowhere/c"], remote_credentials=cred), "no array connection or target")
    ok(fb.patch_object_store_remote_credentials(names=["conf2-s3/creds"], remote_credentials=M.ObjectStoreRemoteCredentials(access_key_id="AKIACONF2ROTATED", secret_access_key="conf2-rotated")))
    report(p, "a new key pair", [c.access_key_id for c in ok(fb.get_object_store_remote_credentials(names=["conf2-s3/creds"]))] == ["AKIACONF2ROTATED"])

    p = "bucket-link-target"
    link = ok(fb.post_bucket_replica_links(local_bucket_names=["analytics-raw"], remote_bucket_names=["archive"], remote_credentials_names=["conf2-s3/creds"], bucket_replica_link=M.BucketReplicaLinkPost(paused=False)))
    report(p, "a bucket replica link to an S3 target", link and (link[0].remote.name, link[0].remote_credentials.name) == ("conf2-s3", "conf2-s3/creds"), link)
    ok(fb.patch_bucket_replica_links(local_bucket_names=["analytics-raw"], remote_names=["conf2-s3"], bucket_replica_link=M.BucketReplicaLink(paused=True)))
    listed = ok(fb.get_bucket_replica_links(remote_names=["conf2-s3"]))
    report(p, "paused, listed by the target's name", [(x.local_bucket.name, x.paused) for x in listed] == [("analytics-raw", True)], listed)
    ok(fb.delete_bucket_replica_links(local_bucket_names=["analytics-raw"], remote_names=["conf2-s3"], remote_bucket_names=["archive"]))
    report(p, "deleted", "conf2-s3" not in [x.remote.name for x in ok(fb.get_bucket_replica_links())])
    ok(fb.delete_object_store_remote_credentials(names=["conf2-s3/creds"]))
    report(p, "its credentials deleted after it", ok(fb.get_object_store_remote_credentials(filter="name='conf2-s3/creds'")) == [])


@flow((2, 0))
def demotion():
    p = "demotion"
    fb = session()
    demote = M.FileSystemPatch(requested_promotion_state="demoted")
    refused(p, "demotion without discard_non_snapshotted_data refused", fb.patch_file_systems(names=["home"], file_system=demote), "discard_non_snapshotted_data")
    refused(p, "demotion without a replica link refused", fb.patch_file_systems(names=["media"], file_system=demote, discard_non_snapshotted_data=True), "no replica link")
    ok(fb.patch_file_systems(names=["home"], file_system=demote, discard_non_snapshotted_data=True))
    fs = ok(fb.get_file_systems(names=["home"]))
    report(p, "demoted shows in promotion_status and is not writable", fs and (fs[0].promotion_status, fs[0].writable) == ("demoted", False), fs)
    refused(p, "a demoted file system cannot be made writable", fb.patch_file_systems(names=["home"], file_system=M.FileSystemPatch(writable=True)), "demoted")
    ok(fb.patch_file_systems(names=["home"], file_system=M.FileSystemPatch(requested_promotion_state="promoted")))
    report(p, "promoted again", [f.promotion_status for f in ok(fb.get_file_systems(names=["home"]))] == ["promoted"])

    p = "destroy-replica-link"
    off = M.FileSystemPatch(destroyed=True, **protocols_off())
    refused(p, "destroy with a replica link needs delete_link_on_eradication", fb.patch_file_systems(names=["projects"], file_system=off), "delete_link_on_eradication")
    done = ok(fb.patch_file_systems(names=["projects"], file_system=off, delete_link_on_eradication=True))
    report(p, "destroyed with delete_link_on_eradication=true", done and done[0].destroyed is True, done)

    p = "fs-source"
    every = ok(fb.get_file_systems())
    report(p, "every file system has a source", every and all(f.source is not None and f.source.is_local is not None for f in every), [f.name for f in every if f.source is None][:3])
    replica = ok(session(DR_HOST).get_file_systems(names=["home"]))
    report(p, "a replica target's source is the file system on the other array", replica and (replica[0].source.name, replica[0].source.is_local) == ("home", False), replica)

