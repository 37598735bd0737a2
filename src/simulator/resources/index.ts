/**
 * Maps `METHOD path` to the handler that serves it: a stateful one where the simulator models the resource,
 * otherwise the generic in-memory collection. Mutating calls that succeed are audited.
 */
import type { HttpMethod } from "../../rest-spec/endpoints.js";
import { findOperation } from "../../rest-spec/operations.js";
import type { SimState } from "../state.js";
import type { SimHandler } from "../types.js";
import { deleteAdminCache, listAdminCache, listAdmins, updateAdmins } from "./admins.js";
import { createAdmins, deleteAdmins } from "./admins-2x.js";
import * as alerts from "./alerts.js";
import * as apiClients from "./api-clients.js";
import * as conns from "./array-connections.js";
import { listArraySpace, listArrays, listSupportedTimeZones, updateArrays } from "./arrays.js";
import { recordAudit } from "./audit.js";
import * as buckets from "./buckets.js";
import * as certs from "./certificates.js";
import { type Handler, listing } from "./common.js";
import * as ds from "./directory-services.js";
import * as downloads from "./downloads.js";
import { EXPORT_ROUTES, ROUTES_BY_FAMILY } from "./export-policies.js";
import * as fsLinks from "./file-system-replica-links.js";
import * as fs from "./file-systems.js";
import { FLEET_FAMILY_ROUTES } from "./fleet-families.js";
import { genericCreate, genericDelete, genericList, genericUpdate } from "./generic.js";
import * as keytabs from "./keytabs.js";
import { HOLD_ROUTES } from "./legal-holds.js";
import * as rules from "./lifecycle-rules.js";
import * as lags from "./link-aggregation-groups.js";
import { WINDOW_ROUTES } from "./maintenance-windows.js";
import * as net from "./network.js";
import { NETWORK_ACCESS_MEMBER_ROUTES } from "./network-access-members.js";
import { NODE_GROUP_ROUTES } from "./node-groups.js";
import * as objperf from "./object-performance.js";
import * as os from "./object-store.js";
import * as osPolicies from "./object-store-access-policies.js";
import * as osRules from "./object-store-access-policy-rules.js";
import { updateAccounts } from "./object-store-accounts-2x.js";
import * as perf from "./performance.js";
import * as policies from "./policies.js";
import * as members from "./policy-members.js";
import * as linkPolicies from "./policy-replica-links.js";
import { QOS_ROUTES } from "./qos-policies.js";
import { GROUPS, quotaHandlers, USERS } from "./quotas.js";
import { REALM_READ_ROUTES } from "./realm-reads.js";
import * as links from "./replica-links.js";
import * as selfTests from "./self-tests.js";
import { listSessions } from "./session-log.js";
import * as snaps from "./snapshots.js";
import * as targets from "./targets.js";
import * as transfers from "./transfers.js";
import { TRUST_POLICY_ROUTES } from "./trust-policies.js";
import { WORM_ROUTES } from "./worm-data-policies.js";

const userQuotas = quotaHandlers(USERS);
const groupQuotas = quotaHandlers(GROUPS);

const listAudits: Handler = (req, state) => listing(state.audits, req);

/** A handler that asks another array over the wire (array connections) answers in its own time. */
type Routes = Record<string, Partial<Record<HttpMethod, Handler | SimHandler<SimState>>>>;

const ROUTES: Routes = {
  "/file-systems": {
    GET: fs.listFileSystems,
    POST: fs.createFileSystem,
    PATCH: fs.updateFileSystems,
    DELETE: fs.deleteFileSystems,
  },
  "/file-system-snapshots": {
    GET: snaps.listSnapshots,
    POST: snaps.createSnapshots,
    PATCH: snaps.updateSnapshots,
    DELETE: snaps.deleteSnapshots,
  },
  "/policies": {
    GET: policies.listPolicies,
    POST: policies.createPolicies,
    PATCH: policies.updatePolicies,
    DELETE: policies.deletePolicies,
  },
  "/policies/file-systems": {
    GET: members.listPolicyFileSystems,
    POST: members.addPolicyFileSystems,
    DELETE: members.removePolicyFileSystems,
  },
  "/file-systems/policies": {
    GET: members.listPolicyFileSystems,
    POST: members.addPolicyFileSystems,
    DELETE: members.removePolicyFileSystems,
  },
  "/policies/members": { GET: members.listPolicyFileSystems },
  "/policies/file-system-snapshots": {
    GET: members.listPolicySnapshots,
    DELETE: members.removePolicySnapshots,
  },
  "/file-system-snapshots/policies": {
    GET: members.listPolicySnapshots,
    DELETE: members.removePolicySnapshots,
  },
  "/quotas/users": {
    GET: userQuotas.list,
    POST: userQuotas.create,
    PATCH: userQuotas.update,
    DELETE: userQuotas.remove,
  },
  "/quotas/groups": {
    GET: groupQuotas.list,
    POST: groupQuotas.create,
    PATCH: groupQuotas.update,
    DELETE: groupQuotas.remove,
  },
  "/usage/users": { GET: userQuotas.usage },
  "/usage/groups": { GET: groupQuotas.usage },
  "/buckets": {
    GET: buckets.listBuckets,
    POST: buckets.createBuckets,
    PATCH: buckets.updateBuckets,
    DELETE: buckets.deleteBuckets,
  },
  "/object-store-accounts": {
    GET: os.listAccounts,
    POST: os.createAccounts,
    PATCH: updateAccounts,
    DELETE: os.deleteAccounts,
  },
  "/object-store-users": {
    GET: os.listObjectUsers,
    POST: os.createObjectUsers,
    DELETE: os.deleteObjectUsers,
  },
  "/object-store-access-keys": {
    GET: os.listAccessKeys,
    POST: os.createAccessKeys,
    PATCH: os.updateAccessKeys,
    DELETE: os.deleteAccessKeys,
  },
  "/lifecycle-rules": {
    GET: rules.listLifecycleRules,
    POST: rules.createLifecycleRules,
    PATCH: rules.updateLifecycleRules,
    DELETE: rules.deleteLifecycleRules,
  },
  "/link-aggregation-groups": {
    GET: lags.listLinkAggregationGroups,
    POST: lags.createLinkAggregationGroups,
    PATCH: lags.updateLinkAggregationGroups,
    DELETE: lags.deleteLinkAggregationGroups,
  },
  "/subnets": {
    GET: net.listSubnets,
    POST: net.createSubnets,
    PATCH: net.updateSubnets,
    DELETE: net.deleteSubnets,
  },
  "/network-interfaces": {
    GET: net.listInterfaces,
    POST: net.createInterfaces,
    PATCH: net.updateInterfaces,
    DELETE: net.deleteInterfaces,
  },
  "/bucket-replica-links": {
    GET: links.listBucketReplicaLinks,
    POST: links.createBucketReplicaLinks,
    PATCH: links.updateBucketReplicaLinks,
    DELETE: links.deleteBucketReplicaLinks,
  },
  "/file-system-replica-links": {
    GET: fsLinks.listFileSystemReplicaLinks,
    POST: fsLinks.createFileSystemReplicaLinks,
    PATCH: fsLinks.updateFileSystemReplicaLinks,
    DELETE: fsLinks.deleteFileSystemReplicaLinks,
  },
  "/array-connections": {
    GET: conns.listArrayConnections,
    POST: conns.createArrayConnections,
    PATCH: conns.updateArrayConnections,
    DELETE: conns.deleteArrayConnections,
  },
  "/array-connections/connection-key": { GET: conns.listConnectionKey, POST: conns.createConnectionKey },
  "/array-connections/path": { GET: conns.listConnectionPaths },
  "/file-system-replica-links/transfer": { GET: transfers.listTransfers },
  "/file-system-snapshots/transfer": { GET: transfers.listTransfers, DELETE: transfers.cancelTransfers },
  "/array-connections/performance/replication": { GET: objperf.listConnectionReplicationPerformance },
  "/arrays": { GET: listArrays, PATCH: updateArrays },
  "/arrays/space": { GET: listArraySpace },
  "/arrays/performance": { GET: perf.listArrayPerformance },
  "/arrays/http-specific-performance": { GET: perf.listHttpPerformance },
  "/arrays/s3-specific-performance": { GET: perf.listS3Performance },
  "/arrays/nfs-specific-performance": { GET: perf.listNfsPerformance },
  "/arrays/performance/replication": { GET: perf.listReplicationPerformance },
  "/arrays/clients/performance": { GET: objperf.listClientPerformance },
  "/file-systems/performance": { GET: objperf.listFileSystemPerformance },
  "/file-systems/users/performance": { GET: objperf.listFileSystemUserPerformance },
  "/file-systems/groups/performance": { GET: objperf.listFileSystemGroupPerformance },
  "/buckets/performance": { GET: objperf.listBucketPerformance },
  "/buckets/s3-specific-performance": { GET: objperf.listBucketS3Performance },
  "/targets/performance/replication": { GET: objperf.listTargetReplicationPerformance },
  "/alerts": { GET: alerts.listAlerts, PATCH: alerts.updateAlerts },
  "/alert-watchers": {
    GET: alerts.listAlertWatchers,
    POST: alerts.createAlertWatchers,
    PATCH: alerts.updateAlertWatchers,
    DELETE: alerts.deleteAlertWatchers,
  },
  "/alert-watchers/test": { GET: alerts.testAlertWatchers },
  "/audits": { GET: listAudits },
  "/admins": { GET: listAdmins, POST: createAdmins, PATCH: updateAdmins, DELETE: deleteAdmins },
  "/support/test": { GET: selfTests.testSupport },
  "/snmp-managers/test": { GET: selfTests.testSnmpManagers },
  "/syslog-servers/test": { GET: selfTests.testSyslogServers },
  "/directory-services/test": {
    GET: selfTests.testDirectoryServices,
    PATCH: selfTests.testDirectoryServices,
  },
  "/active-directory/test": { GET: selfTests.testActiveDirectory, PATCH: selfTests.checkActiveDirectory },
  "/admins/cache": { GET: listAdminCache, DELETE: deleteAdminCache },
  "/api-clients": {
    GET: apiClients.listApiClients,
    POST: apiClients.createApiClients,
    PATCH: apiClients.updateApiClients,
    DELETE: apiClients.deleteApiClients,
  },
  "/arrays/supported-time-zones": { GET: listSupportedTimeZones },
  "/certificates": {
    GET: certs.listCertificates,
    POST: certs.createCertificates,
    PATCH: certs.updateCertificates,
    DELETE: certs.deleteCertificates,
  },
  "/certificate-groups": {
    GET: certs.listCertificateGroups,
    POST: certs.createCertificateGroups,
    DELETE: certs.deleteCertificateGroups,
  },
  "/certificate-groups/certificates": {
    GET: certs.listGroupMembers,
    POST: certs.addGroupMembers,
    DELETE: certs.removeGroupMembers,
  },
  "/certificates/certificate-groups": {
    GET: certs.listGroupMembers,
    POST: certs.addGroupMembers,
    DELETE: certs.removeGroupMembers,
  },
  "/directory-services": { GET: ds.listDirectoryServices, PATCH: ds.updateDirectoryServices },
  "/directory-services/roles": { GET: ds.listDirectoryRoles, PATCH: ds.updateDirectoryRoles },
  "/active-directory": {
    GET: ds.listActiveDirectory,
    POST: ds.createActiveDirectory,
    PATCH: ds.updateActiveDirectory,
    DELETE: ds.deleteActiveDirectory,
  },
  "/keytabs": { GET: keytabs.listKeytabs, POST: keytabs.createKeytabs, DELETE: keytabs.deleteKeytabs },
  "/keytabs/download": { GET: downloads.downloadKeytabs },
  "/keytabs/upload": { POST: keytabs.uploadKeytabs },
  "/logs": { GET: downloads.downloadLogs },
  "/object-store-access-policies": {
    GET: osPolicies.listAccessPolicies,
    POST: osRules.createAccessPolicies,
    PATCH: osRules.updateAccessPolicies,
    DELETE: osRules.deleteAccessPolicies,
  },
  "/object-store-access-policies/rules": {
    GET: osRules.listAccessPolicyRules,
    POST: osRules.createAccessPolicyRules,
    PATCH: osRules.updateAccessPolicyRules,
    DELETE: osRules.deleteAccessPolicyRules,
  },
  "/object-store-access-policies/object-store-users": {
    GET: osPolicies.listPolicyUsers,
    POST: osPolicies.addPolicyUsers,
    DELETE: osPolicies.removePolicyUsers,
  },
  "/object-store-users/object-store-access-policies": {
    GET: osPolicies.listPolicyUsers,
    POST: osPolicies.addPolicyUsers,
    DELETE: osPolicies.removePolicyUsers,
  },
  "/policies/file-system-replica-links": {
    GET: linkPolicies.listReplicaLinkPolicies,
    POST: linkPolicies.addReplicaLinkPolicies,
    DELETE: linkPolicies.removeReplicaLinkPolicies,
  },
  "/file-system-replica-links/policies": {
    GET: linkPolicies.listReplicaLinkPolicies,
    POST: linkPolicies.addReplicaLinkPolicies,
    DELETE: linkPolicies.removeReplicaLinkPolicies,
  },
  "/targets": {
    GET: targets.listTargets,
    POST: targets.createTargets,
    PATCH: targets.updateTargets,
    DELETE: targets.deleteTargets,
  },
  "/object-store-remote-credentials": {
    GET: targets.listCredentials,
    POST: targets.createCredentials,
    PATCH: targets.updateCredentials,
    DELETE: targets.deleteCredentials,
  },
  // 2.x-only families modelled with their rules (issue 42), by canonical path.
  ...ROUTES_BY_FAMILY,
  ...EXPORT_ROUTES,
  ...QOS_ROUTES,
  ...WORM_ROUTES,
  ...HOLD_ROUTES,
  ...WINDOW_ROUTES,
  ...FLEET_FAMILY_ROUTES,
  ...NODE_GROUP_ROUTES,
  ...REALM_READ_ROUTES,
  ...NETWORK_ACCESS_MEMBER_ROUTES,
  ...TRUST_POLICY_ROUTES,
  "/sessions": { GET: listSessions },
};

const GENERIC: Partial<Record<HttpMethod, Handler>> = {
  GET: genericList,
  POST: genericCreate,
  PATCH: genericUpdate,
  DELETE: genericDelete,
  // A 2.x PUT replaces what it names: the generic collection merges it like a PATCH.
  PUT: genericUpdate,
};

/** Mutations that succeed are audited; checks (`…/test`) change nothing and are not. */
function audited(handler: Handler | SimHandler<SimState>): SimHandler<SimState> {
  return (req, state) => {
    const result = handler(req, state);
    if (result instanceof Promise)
      return result.then((r) => {
        recordAudit(state, req);
        return r;
      });
    recordAudit(state, req);
    return result;
  };
}

const cache = new Map<string, SimHandler<SimState>>();

/**
 * The handler for a versioned endpoint of the table: a stateful one where the simulator models the resource,
 * otherwise the generic in-memory collection. Undefined only for paths outside the endpoint table.
 */
export function findHandler(method: HttpMethod, path: string): SimHandler<SimState> | undefined {
  const key = `${method} ${path}`;
  const hit = cache.get(key);
  if (hit) return hit;
  // Any operation of the table: a 2.x-only one (by its canonical path) is a generic collection until modelled.
  if (!findOperation(method, path)?.versioned) return undefined;
  const base = ROUTES[path]?.[method] ?? GENERIC[method];
  if (!base) return undefined;
  const handler = method === "GET" || path.endsWith("/test") ? base : audited(base);
  cache.set(key, handler);
  return handler;
}

/** Whether a resource of the simulator models the path (else it is the generic collection's): the demo seeds ask. */
export function modelled(path: string): boolean {
  return Object.hasOwn(ROUTES, path);
}
