// tools/switchboard-dev.mjs over HTTP, without a browser: sessions per page load, routing,
// routers that exit or hang, hostile requests. The browser test (browser/run.mjs) drives the
// demo page through it in Chromium.
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { pathToFileURL } from "node:url";
import { cliPath, repositoryRoot } from "./support/wire-handlers.mjs";

/**
 * Reads the Server-Sent Events of `response` as they come: `onEvent(type, data)` for each complete
 * block that has a type, until it returns true.
 */
function readEvents(response, onEvent) {
    let text = "";
    let done = false;
    response.setEncoding("utf8");
    response.on("data", (chunk) => {
        text += chunk;
        for (let end = text.indexOf("\n\n"); end >= 0 && !done; end = text.indexOf("\n\n")) {
            const block = text.slice(0, end);
            text = text.slice(end + 2);
            const type = /^event: (.*)$/m.exec(block)?.[1];
            const data = /^data: (.*)$/m.exec(block)?.[1];
            if (type) done = onEvent(type, data);
        }
    });
}

/** Enough of the DOM's EventSource for the client's dev transport, over node:http. */
class NodeEventSource {
    constructor(url) {
        this.readyState = 0;
        this.listeners = new Map();
        this.onerror = null;
        this.request = request(url, (response) => {
            if (response.statusCode !== 200) { this.fail(); return; }
            this.readyState = 1;
            readEvents(response, (type, data) => {
                if (this.readyState !== 2) for (const listener of this.listeners.get(type) ?? []) listener({ data });
                return false;
            });
            response.on("end", () => this.fail());
        });
        this.request.on("error", () => this.fail());
        this.request.end();
    }

    fail() {
        if (this.readyState === 2) return;
        this.readyState = 2;
        this.onerror?.({});
    }

    addEventListener(type, listener) {
        this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
    }

    close() {
        this.readyState = 2;
        this.request.destroy();
    }
}

const site = mkdtempSync(join(tmpdir(), "switchboard-dev-site-"));
writeFileSync(join(site, "index.html"), "<!doctype html><html><head><title>t</title></head><body>shop</body></html>");
writeFileSync(join(site, "plain.html"), "<p>no head</p>");
writeFileSync(join(site, "app.js"), "export const x = 1;");
writeFileSync(join(site, "switchboard.js"), "// the site's own client\n");
const servers = [];
after(() => {
    for (const server of servers) server.kill("SIGTERM");
    rmSync(site, { recursive: true, force: true });
});

/** Starts the dev server with `args`; resolves with its base URL. */
async function devServer(args) {
    const child = spawn(process.execPath, [join(repositoryRoot, "tools/switchboard-dev.mjs"), "--root", site, "--port", "0", ...args],
        { stdio: ["ignore", "pipe", "pipe"] });
    servers.push(child);
    let output = "";
    const base = await new Promise((resolve, reject) => {
        const read = (text) => {
            output += text;
            const match = /serving .* at (http:\/\/\S+?)\/\n/.exec(output);
            if (match) resolve(match[1]);
        };
        child.stdout.setEncoding("utf8").on("data", read);
        child.stderr.setEncoding("utf8").on("data", read);
        child.on("exit", (status) => reject(new Error(`the dev server exited (${status}): ${output}`)));
    });
    return { base, output: () => output };
}

/** The session id the server injected into a served page. */
async function pageSession(base, path = "/") {
    const html = await (await fetch(base + path)).text();
    const match = /"session":"([0-9a-f]+)"/.exec(html);
    assert.ok(match, `a session in ${html}`);
    return match[1];
}

const post = async (base, session, message, headers = {}) => {
    const response = await fetch(`${base}/__switchboard/message?session=${session}`, {
        method: "POST", headers: { "content-type": "application/json", ...headers },
        body: typeof message === "string" ? message : JSON.stringify(message),
    });
    return { status: response.status, answer: await response.json() };
};

/** The first `count` Server-Sent Events of a session's stream, as [type, data]. */
function events(base, session, count) {
    return new Promise((resolve, reject) => {
        const seen = [];
        const req = request(`${base}/__switchboard/events?session=${session}`, (response) => {
            readEvents(response, (type, data) => {
                seen.push([type, JSON.parse(data)]);
                if (seen.length !== count) return false;
                req.destroy();
                resolve(seen);
                return true;
            });
            response.on("end", () => resolve(seen));
        });
        req.on("error", reject);
        req.end();
    });
}

const router = (mode) => `'${process.execPath}' '${join(repositoryRoot, "Tests/ClientTests/support/misbehaving-router.mjs")}' ${mode}`;

describe("switchboard-dev", () => {
    test("injects the dev endpoint and a fresh session into each page load, before the page's scripts", async () => {
        const { base } = await devServer(["--router", router("hang")]);
        const html = await (await fetch(`${base}/`)).text();
        assert.match(html, /^<!doctype html><html><head><script>window\.switchboard = Object\.assign\(window\.switchboard \|\| \{\}, \{ dev: \{"endpoint":"\/__switchboard","session":"[0-9a-f]{24}"\} \}\);<\/script><title>/);
        assert.notEqual(await pageSession(base), await pageSession(base), "a session per page load");
        assert.match(await (await fetch(`${base}/plain.html`)).text(), /^<script>.*<\/script><p>no head<\/p>$/);
        assert.equal(await (await fetch(`${base}/app.js`)).text(), "export const x = 1;", "other files as they are");
        assert.equal(await (await fetch(`${base}/switchboard.js`)).text(), "// the site's own client\n");
    });

    test("refuses paths outside the site and unknown endpoints", async () => {
        const { base } = await devServer(["--router", router("hang")]);
        const outside = await new Promise((resolve) => {
            request(`${base}/../../etc/passwd`, { path: "/..%2f..%2fetc/passwd" }, (response) => resolve(response.statusCode)).end();
        });
        assert.ok(outside === 403 || outside === 404, `status ${outside}`);
        assert.equal((await fetch(`${base}/missing.html`)).status, 404);
        assert.equal((await fetch(`${base}/%E0%A4%A`)).status, 400, "a path that is not UTF-8");
        assert.equal((await fetch(`${base}/app.js`)).status, 200, "the server is still up");
        assert.equal((await fetch(`${base}/__switchboard/nothing`)).status, 404);
        assert.equal((await fetch(`${base}/`, { method: "DELETE" })).status, 405);
    });

    test("answers what it cannot route with an error, never silence", async () => {
        const { base } = await devServer(["--router", router("hang")]);
        const unknown = await post(base, "not-a-session", { name: "sdkReady" });
        assert.deepEqual(unknown.answer.error.kind, "unavailable");
        assert.match(unknown.answer.error.message, /^sdkReady: this page's dev session is unknown/);
        const session = await pageSession(base);
        const notJSON = await post(base, session, "{nope");
        assert.equal(notJSON.status, 400);
        assert.equal(notJSON.answer.error.kind, "invalid");
        const noName = await post(base, session, { body: 1 });
        assert.equal(noName.answer.error.kind, "invalid");
        const stream = await events(base, "not-a-session", 1);
        assert.equal(stream[0][0], "down");
    });

    test("a router that hangs is stopped, and the page told", async () => {
        const { base, output } = await devServer(["--router", router("hang"), "--reply-timeout", "0.5"]);
        const session = await pageSession(base);
        const stream = events(base, session, 2);
        const { answer } = await post(base, session, { name: "sdkReady" });
        assert.equal(answer.error.kind, "unavailable");
        assert.match(answer.error.message, /did not answer sdkReady within 0\.5 s/);
        const [manifest, down] = await stream;
        assert.deepEqual(manifest, ["manifest", { channels: ["sdkReady"], features: {} }]);
        assert.equal(down[0], "down");
        const later = await post(base, session, { name: "sdkReady" });
        assert.match(later.answer.error.message, /reload the page to restart it/);
        assert.match(output(), /no outcome for sdkReady within 0\.5 s/);
    });

    test("a router that exits fails the message waiting on it, with what it said", async () => {
        const { base } = await devServer(["--router", router("exit")]);
        const session = await pageSession(base);
        const { answer } = await post(base, session, { name: "sdkReady" });
        assert.equal(answer.error.kind, "unavailable");
        assert.match(answer.error.message, /the router exited \(status 3\): misbehaving-router: giving up/);
        const fresh = await pageSession(base);
        const [first] = await events(base, fresh, 1);
        assert.equal(first[0], "manifest", "the next page load starts a new router");
    });

    test("routes through switchboard-cli, with the page's origin, and records a fixture that replays", async () => {
        const work = mkdtempSync(join(tmpdir(), "switchboard-dev-record-"));
        try {
            const record = join(work, "shop.ndjson");
            const { base } = await devServer(["--cli", cliPath(), "--record", record, "--allow-origin", "https://shop.example.com"]);
            const session = await pageSession(base);
            const shop = { origin: "https://shop.example.com" };
            assert.deepEqual(await post(base, session, { name: "sdkReady", mainFrame: true }, shop), { status: 200, answer: { reply: null } });
            const evil = await post(base, session, { name: "sdkReady", mainFrame: true }, { origin: "https://evil.example" });
            assert.equal(evil.answer.error.kind, "rejected");
            const frame = await post(base, session, { name: "sdkReady", mainFrame: false }, shop);
            assert.equal(frame.answer.error.kind, "rejected", "a sub-frame without --allow-subframes");
            const cart = await post(base, session, { name: "productCartGetState", mainFrame: true }, shop);
            assert.equal(cart.answer.reply.price, "0");
            assert.deepEqual(readFileSync(join(work, "shop.args"), "utf8"), "--allow-origin\nhttps://shop.example.com\n");
            const lines = readFileSync(record, "utf8").trim().split("\n").map((line) => JSON.parse(line));
            assert.deepEqual(lines[1], { name: "sdkReady", id: "m2", origin: "https://evil.example", mainFrame: true });
            const expected = readFileSync(join(work, "shop.expected.ndjson"), "utf8").trim().split("\n").map((line) => JSON.parse(line));
            assert.deepEqual(expected.map((line) => [line.line, line.source, line.outcome]),
                [[1, record, "handled"], [2, record, "rejected"], [3, record, "rejected"], [4, record, "replied"]]);
            const replay = spawnSync(cliPath(), ["--quiet", "--allow-origin", "https://shop.example.com", record], { encoding: "utf8" });
            assert.equal(replay.stdout, readFileSync(join(work, "shop.expected.ndjson"), "utf8"), "the replay prints what was recorded");
        } finally {
            rmSync(work, { recursive: true, force: true });
        }
    });

    test("the generated client in a page without window.webkit uses the dev server: calls, pushes, a dying router", async () => {
        const out = mkdtempSync(join(tmpdir(), "switchboard-dev-client-"));
        const errors = [];
        const consoleError = console.error;
        try {
            spawnSync(cliPath(), ["client", "--out", out]);
            const { connect } = await import(pathToFileURL(join(out, "switchboard.js")).href);
            const { base } = await devServer(["--cli", cliPath()]);
            globalThis.EventSource = NodeEventSource;
            globalThis.top = globalThis;
            globalThis.switchboard = { dev: { endpoint: `${base}/__switchboard`, session: await pageSession(base) } };
            console.error = (text) => errors.push(text);
            const sb = connect();
            const manifest = await sb.ready;
            assert.ok(manifest.channels.includes("productCartUpdate"));
            assert.equal(sb.isAvailable("cartChanged"), true, "the push channel is live");
            const pushes = [];
            sb.on.cartChanged((cart) => pushes.push(cart.price));
            const offer = { offerId: "1", imageUrls: [], availability: 1, price: "2.50", currency: "EUR", quantity: 2 };
            assert.equal((await sb.request.productCartUpdate({ offer })).price, "5.00");
            await assert.rejects(sb.send.removeCartLine({ lineId: "gid://shopify/CartLine/7", merchandiseId: "m", productId: "p", quantity: 1, attributes: {} }),
                { kind: "failed", channel: "removeCartLine" });
            for (let tries = 0; pushes.length === 0 && tries < 100; tries += 1) await new Promise((resolve) => setTimeout(resolve, 20));
            assert.deepEqual(pushes, ["5.00"]);

            const changes = [];
            sb.onAvailabilityChange((availability) => changes.push(Object.values(availability).some(Boolean)));
            const [session] = await (await fetch(`${base}/__switchboard/sessions`)).json();
            process.kill(session.pid, "SIGKILL");
            for (let tries = 0; changes.length === 0 && tries < 100; tries += 1) await new Promise((resolve) => setTimeout(resolve, 20));
            assert.deepEqual(changes, [false], "every channel went off");
            await assert.rejects(sb.request.productCartGetState(), (error) => {
                assert.equal(error.kind, "unavailable");
                assert.match(error.message, /the router exited \(SIGKILL\); reload the page to restart it/);
                return true;
            });
            assert.match(errors.join("\n"), /^switchboard: the app is unavailable: the router exited/);
        } finally {
            console.error = consoleError;
            delete globalThis.EventSource;
            delete globalThis.top;
            delete globalThis.switchboard;
            rmSync(out, { recursive: true, force: true });
        }
    });

    test("refuses a bad command line", async () => {
        const run = (args) => new Promise((resolve) => {
            const child = spawn(process.execPath, [join(repositoryRoot, "tools/switchboard-dev.mjs"), ...args], { stdio: ["ignore", "ignore", "pipe"] });
            let stderr = "";
            child.stderr.setEncoding("utf8").on("data", (text) => { stderr += text; });
            child.on("exit", (status) => resolve({ status, stderr }));
        });
        assert.deepEqual((await run([])).status, 2);
        assert.match((await run(["--root", site, "--port", "99999"])).stderr, /--port must be/);
        assert.match((await run(["--root", site, "--record", "x.json"])).stderr, /must end in \.ndjson/);
        assert.match((await run(["--root", site, "--router", "x", "--allow-origin", "https://a.example"])).stderr, /put them in COMMAND/);
        assert.match((await run(["--root", site, "--bind", "0.0.0.0"])).stderr, /unknown option --bind/);
    });
});
