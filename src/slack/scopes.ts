/**
 * Which bot scope each Web API method the bot calls needs. manifest.yml must ask for exactly these scopes
 * (least privilege); a test holds the two together, and the integration tests check that every method the
 * fake Web API saw is listed here.
 */
export const METHOD_SCOPES = {
  "chat.postMessage": "chat:write",
  "chat.postEphemeral": "chat:write",
  "chat.update": "chat:write",
  "views.open": null,
  "views.publish": null,
  // App Home's buttons open a modal at once and show the read in it when it comes.
  "views.update": null,
  "users.info": "users:read",
  "usergroups.users.list": "usergroups:read",
  // A private listing's CSV goes to the requester's DM with the bot.
  "conversations.open": "im:write",
  "files.getUploadURLExternal": "files:write",
  "files.completeUploadExternal": "files:write",
  // Called by Bolt itself: token check at start, Socket Mode's WebSocket URL (app token).
  "auth.test": null,
  "apps.connections.open": null,
} as const satisfies Record<string, string | null>;

/** Scopes that come with features rather than methods. */
export const FEATURE_SCOPES = ["commands"] as const;

export const BOT_SCOPES: readonly string[] = [
  ...new Set([
    ...FEATURE_SCOPES,
    ...Object.values(METHOD_SCOPES).filter((s): s is NonNullable<typeof s> => s !== null),
  ]),
].sort();
