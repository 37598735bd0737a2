/** The load test's bot in its own process (bot.ts starts it), so its memory is measured alone. */
import { serveBot } from "./bot.js";

serveBot();
