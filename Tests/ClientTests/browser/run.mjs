#!/usr/bin/env node
// The demo shop (tools/demo) in headless Chromium against the dev server (tools/switchboard-dev.mjs)
// and the real router: the rendered cart, a push, a call rejected by the origin policy, a failure
// shown with its kind, a router that dies and is restarted by a reload, and `--record` output that
// `switchboard-cli` replays to the same outcomes. Exits 0 when all hold, 1 otherwise.
//
//   node Tests/ClientTests/browser/run.mjs [--screenshot FILE.png]
//
// Environment: SWITCHBOARD_CLI (default .build/debug/switchboard-cli), CHROMIUM (default chromium on
// PATH; installed with apt-get when missing, running as root under CI=true).
import assert from "node:assert/strict";
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { findChromium, launch } from "./cdp.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const cli = process.env.SWITCHBOARD_CLI || join(root, ".build/debug/switchboard-cli");
const screenshotIndex = process.argv.indexOf("--screenshot");
const screenshotPath = screenshotIndex > 0 ? resolve(process.argv[screenshotIndex + 1]) : null;
const work = mkdtempSync(join(tmpdir(), "switchboard-browser-"));
const started = Date.now();
const step = (text) => console.log(`browser: ${((Date.now() - started) / 1000).toFixed(1)} s  ${text}`);

function chromium() {
    let binary = findChromium();
    if (binary === null && process.env.CI && process.getuid?.() === 0) {
        step("installing chromium with apt-get");
        spawnSync("apt-get", ["update", "-qq"], { stdio: "inherit" });
        spawnSync("apt-get", ["install", "-y", "-qq", "chromium"], { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
        binary = findChromium();
    }
    assert.ok(binary, "no Chromium: install Debian's chromium (apt-get install chromium) or set CHROMIUM");
    return binary;
}

const freePort = () => new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => { const { port } = server.address(); server.close(() => resolve(port)); });
    server.on("error", reject);
});

/** Starts the dev server; resolves once it listens. */
async function devServer(args) {
    const child = spawn(process.execPath, [join(root, "tools/switchboard-dev.mjs"), ...args],
        { cwd: work, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, SWITCHBOARD_CLI: cli } });
    let output = "";
    await new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the dev server did not start:\n${output}`)), 20000);
        const read = (text) => {
            output += text;
            if (/serving .* at http/.test(output)) { clearTimeout(timer); resolve(); }
        };
        child.stdout.setEncoding("utf8").on("data", read);
        child.stderr.setEncoding("utf8").on("data", read);
        child.on("exit", (status) => { clearTimeout(timer); reject(new Error(`the dev server exited (${status}):\n${output}`)); });
    });
    child.removeAllListeners("exit");
    return { child, log: () => output };
}

async function main() {
    assert.ok(existsSync(cli), `no switchboard-cli at ${cli}: run \`swift build --product switchboard-cli\` or set SWITCHBOARD_CLI`);
    const port = await freePort();
    const site = `http://127.0.0.1:${port}`;
    const other = `http://localhost:${port}`; // the same server, another origin
    const record = join(work, "demo.ndjson");
    const server = await devServer(["--root", join(root, "tools/demo"), "--port", String(port),
        "--allow-origin", site, "--record", record]);
    const browser = await launch(chromium());
    let page;
    try {
        step(`dev server at ${site}, Chromium started`);
        page = await browser.open(`${site}/`);
        await page.waitFor("document.body.dataset.started === 'yes'", "the demo to start");
        assert.equal(await page.evaluate("document.body.dataset.status"), "live",
            `the demo is live: ${await page.evaluate("document.querySelector('#status').textContent")}`);
        await page.waitFor("document.body.dataset.cartTotal === '0'", "the empty cart from productCartGetState");
        step("the demo is live with an empty cart");

        await page.click("#add-36512");
        await page.waitFor("document.body.dataset.cartTotal === '10.50'", "one T-shirt in the cart");
        await page.click("#add-36512");
        await page.waitFor("document.body.dataset.cartTotal === '21.00'", "two T-shirts");
        await page.click("#add-40017");
        await page.waitFor("document.body.dataset.cartTotal === '28.90'", "and a mug");
        const lines = await page.evaluate("[...document.querySelectorAll('#cart-lines div')].map((row) => row.textContent)");
        assert.deepEqual(lines, ["Cotton T-shirt × 210.50 EUR", "Enamel mug × 17.90 EUR"]);
        assert.equal(await page.evaluate("document.querySelector('#total').textContent"), "31.9028.90 EUR");
        step("the rendered cart follows productCartUpdate's replies");

        // A push: the app changes the cart on its own (here, a message into the page's session from outside).
        const session = await page.evaluate("window.switchboard.dev.session");
        const response = await fetch(`${site}/__switchboard/message?session=${session}`, {
            method: "POST",
            headers: { origin: site, "content-type": "application/json" },
            body: JSON.stringify({ name: "productCartUpdate", mainFrame: true, body: { offer: {
                offerId: "51230", name: "Wool cap", price: "15.00", currency: "EUR", imageUrls: [], availability: 1, quantity: 1 } } }),
        });
        assert.equal((await response.json()).reply.price, "43.90");
        await page.waitFor("document.body.dataset.cartTotal === '43.90'", "the cartChanged push to re-render the cart");
        assert.ok(await page.evaluate("[...document.querySelectorAll('#log li.push')].length >= 1"), "the push is logged");
        step("a cartChanged push re-rendered the cart");
        if (screenshotPath) {
            writeFileSync(screenshotPath, await page.screenshot());
            step(`screenshot written to ${screenshotPath}`);
        }

        await page.click("#claim");
        await page.waitFor("document.body.dataset.tote === '1'", "the tote's cart line, from the cartChanged push");
        assert.equal(await page.evaluate("document.querySelector('#rewards').textContent"), "tote × 1 (line 1)");
        await page.click("#unclaim");
        await page.waitFor("document.body.dataset.tote === '0'", "the tote returned");
        await page.click("#unclaim");
        await page.waitFor("document.body.dataset.lastError === 'failed'", "a second removal to fail with kind failed");
        assert.match(await page.evaluate("document.querySelector('#log li').textContent"), /no cart line with lineId/);
        step("a failed call is shown with its kind and message");

        const outsider = await browser.open(`${other}/`);
        await outsider.waitFor("document.body.dataset.started === 'yes'", "the page from another origin to start");
        await outsider.waitFor("document.body.dataset.lastError === 'rejected'", "productCartGetState rejected by the origin policy");
        assert.match(await outsider.evaluate("document.querySelector('#log li.error').textContent"),
            new RegExp(`rejected: origin ${other.replace(/[.:/]/g, "\\$&")} is not allowed`));
        await outsider.close();
        step("a page from another origin is rejected by the origin policy");

        const sessions = await (await fetch(`${site}/__switchboard/sessions`)).json();
        const mine = sessions.find((entry) => entry.id === session);
        assert.ok(mine?.pid, `the page's session has a router: ${JSON.stringify(sessions)}`);
        process.kill(mine.pid, "SIGKILL");
        await page.waitFor("document.body.dataset.status === 'down'", "the page to show the app unavailable");
        assert.match(await page.evaluate("document.querySelector('#status').textContent"), /unavailable/);
        const fresh = await page.evaluate("import('./switchboard.js').then(({ connect }) => connect().ready.then(() => 'ready', (e) => e.kind + ': ' + e.message))");
        assert.match(fresh, /^unavailable: .*the router exited/, "a client connected now is told why");
        assert.ok(page.console.some((line) => /console\.error: switchboard: .*the router exited/.test(line)),
            `the console says the router exited:\n  ${page.console.join("\n  ")}`);
        step("a router that dies makes the page unavailable");

        await page.send("Page.reload", {});
        await page.waitFor("document.body.dataset.started === 'yes' && document.body.dataset.status === 'live'", "the reloaded page live");
        await page.waitFor("document.body.dataset.cartTotal === '0'", "a fresh router with an empty cart");
        await page.click("#add-40017");
        await page.waitFor("document.body.dataset.cartTotal === '7.90'", "the restarted router to answer");
        step("a reload restarts the router");
    } catch (error) {
        console.error(`dev server output:\n${server.log()}`);
        if (page) console.error(`page console:\n  ${page.console.join("\n  ")}`);
        throw error;
    } finally {
        await browser.close();
        server.child.kill("SIGTERM");
        await new Promise((resolve) => server.child.on("exit", resolve));
    }

    // Every page load's recording replays to the outcomes recorded.
    const recorded = readdirSync(work).filter((name) => /^demo(-\d+)?\.ndjson$/.test(name)).sort();
    assert.ok(recorded.length >= 3, `a recording per page load: ${recorded.join(", ")}`);
    for (const name of recorded) {
        const path = join(work, name);
        const argsFile = path.replace(/\.ndjson$/, ".args");
        const args = existsSync(argsFile) ? readFileSync(argsFile, "utf8").split("\n").filter(Boolean) : [];
        const replay = spawnSync(cli, ["--quiet", ...args, path], { encoding: "utf8" });
        const expected = readFileSync(path.replace(/\.ndjson$/, ".expected.ndjson"), "utf8");
        assert.ok(expected.length > 0, `${name} recorded outcomes`);
        assert.equal(replay.stdout, expected, `${name} replays to the recorded outcomes`);
    }
    const all = recorded.map((name) => readFileSync(join(work, name.replace(/\.ndjson$/, ".expected.ndjson")), "utf8")).join("");
    assert.match(all, /"outcome":"rejected"/, "the rejected call is in a recording");
    assert.match(all, /"outcome":"hello","differing":\[\]/, "a page load stated its contract digests, and they agree");
    step(`${recorded.length} recordings replay to the same outcomes with switchboard-cli`);
}

try {
    await main();
    rmSync(work, { recursive: true, force: true });
    step("passed");
} catch (error) {
    console.error(`browser: FAILED: ${error.stack ?? error}`);
    console.error(`(work folder kept: ${work})`);
    process.exit(1);
}
