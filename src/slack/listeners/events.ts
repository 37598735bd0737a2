/**
 * Events: App Home opened (publish the caller's home view) and user-group changes (refresh identity so a
 * role granted or revoked in Slack takes effect at the next click).
 */
import type { App } from "@slack/bolt";
import { homeView } from "../home.js";
import type { ListenerContext } from "./context.js";

export function registerEvents(app: App, ctx: ListenerContext): void {
  app.event("app_home_opened", async ({ event, body }) => {
    if (event.tab !== undefined && event.tab !== "home") return;
    if (await duplicate(ctx, body.event_id)) return;
    try {
      await publishHome(ctx, event.user);
    } catch (err) {
      ctx.logger.error({ err, user: event.user }, "could not publish App Home");
    }
  });

  app.event("subteam_members_changed", async ({ event, body }) => {
    if (await duplicate(ctx, body.event_id)) return;
    ctx.identity.membersChanged(event);
  });

  app.event("subteam_updated", async ({ event, body }) => {
    if (await duplicate(ctx, body.event_id)) return;
    await ctx.identity.groupUpdated(event.subteam.id);
  });
}

/** Reads this person's home and publishes it (when opened, and after a change they confirmed or approved). */
export async function publishHome(ctx: Pick<ListenerContext, "home" | "client" | "now">, userId: string) {
  const data = await ctx.home.load(userId);
  await ctx.client.call("views.publish", { user_id: userId, view: homeView(data, new Date(ctx.now())) });
}

/** A delivery of an event already handled here or by another replica (Slack retries events it thinks were lost). */
async function duplicate(ctx: ListenerContext, eventId: string): Promise<boolean> {
  if (await ctx.dedupe.firstTime(`event:${eventId}`)) return false;
  ctx.logger.info({ eventId }, "duplicate delivery of an event ignored");
  return true;
}
