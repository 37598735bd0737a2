/**
 * Array connections between simulated arrays in separate processes (two `npm run simulator` CLIs, real HTTPS on
 * loopback): the connecting array learns the peer's name and id over the wire, only with a connection key the
 * peer issued, as two arrays on a network do.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { Agent, request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compileFixture, REPO } from "../helpers/compile-fixture.js";

// biome-ignore lint/suspicious/noExplicitAny: the answers are read by the assertions, field by field
type Reply = { status: number; body: any };

// The CLI compiled on its own (not dist/, which other test files rebuild while this one runs).
let build: string;
let cliJs: string;
const children: ChildProcessWithoutNullStreams[] = [];
const agent = new Agent({ connect: { rejectUnauthorized: false } });

/** One CLI process with one array named `<prefix>-1`: its API URL once it prints it. */
async function simulatorProcess(prefix: string): Promise<string> {
  const child = spawn(
    process.execPath,
    [cliJs, "--port", "0", "--name-prefix", prefix, "--api-token", "T-peers", "--log-level", "silent"],
    { cwd: REPO },
  );
  children.push(child);
  return new Promise((resolve, reject) => {
    let text = "";
    child.stdout.on("data", (c: Buffer) => {
      text += c.toString("utf8");
      const m = new RegExp(`^${prefix}-1\\s+(https://\\S+/api)`, "m").exec(text);
      if (m?.[1]) resolve(m[1]);
    });
    child.once("exit", (code) => reject(new Error(`simulator exited with ${code}: ${text}`)));
  });
}

async function session(
  api: string,
): Promise<(method: string, path: string, body?: unknown) => Promise<Reply>> {
  const login = await request(`${api}/login`, {
    method: "POST",
    headers: { "api-token": "T-peers" },
    dispatcher: agent,
  });
  await login.body.dump();
  const token = String(login.headers["x-auth-token"]);
  const versions = (await (await request(`${api}/api_version`, { dispatcher: agent })).body.json()) as {
    versions: string[];
  };
  const v = versions.versions.at(-1);
  return async (method, path, body) => {
    const r = await request(`${api}/${v}${path}`, {
      method: method as "GET",
      headers: { "x-auth-token": token, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      dispatcher: agent,
    });
    return { status: r.statusCode, body: await r.body.json() };
  };
}

beforeAll(() => {
  build = compileFixture("src/simulator/cli.ts", "peers-cli");
  cliJs = join(build, "src", "simulator", "cli.js");
}, 120_000);

afterAll(async () => {
  for (const c of children) c.kill("SIGTERM");
  await agent.close();
  rmSync(build, { recursive: true, force: true });
});

describe("array connections across processes", () => {
  it("learn the peer's name and id over the wire, and only with a key the peer issued", async () => {
    const [labApi, drApi] = await Promise.all([simulatorProcess("fb-lab"), simulatorProcess("fb-dr")]);
    const lab = await session(labApi as string);
    const dr = await session(drApi as string);
    const drAddress = new URL(drApi as string).host;
    const drArray = (await dr("GET", "/arrays")).body.items[0];
    const key = (await dr("POST", "/array-connections/connection-key")).body.items[0].connection_key;
    const wrong = await lab("POST", "/array-connections", {
      management_address: drAddress,
      connection_key: `${key}x`,
    });
    expect(wrong.status).toBe(400);
    expect(JSON.stringify(wrong.body)).toContain(`not one the array at ${drAddress} issued`);
    const named = await lab("POST", "/array-connections", {
      management_address: drAddress,
      connection_key: key,
      remote: { name: "fb-other" },
    });
    expect(named.status).toBe(400);
    expect(JSON.stringify(named.body)).toContain("is 'fb-dr-1', not 'fb-other'");
    const made = await lab("POST", "/array-connections", {
      management_address: drAddress,
      connection_key: key,
    });
    expect(made.status).toBe(200);
    expect(made.body.items[0].remote).toEqual({ name: "fb-dr-1", id: drArray.id });
    const listed = (await lab("GET", "/array-connections")).body.items.map(
      (c: { remote: { name: string } }) => c.remote.name,
    );
    expect(listed).toContain("fb-dr-1");
  }, 60_000);
});
