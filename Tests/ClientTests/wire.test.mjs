// The generated client (`switchboard-cli client --out DIR`) in Node against the real router:
// `switchboard-cli --push` behind a messageHandlers shim speaking the NDJSON wire format over a
// pipe (support/wire-handlers.mjs). Needs the CLI's `client` command, `--push`, and the error
// envelope's `kind`/`channel` on outcome lines; without them these tests fail saying so.
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { after, before, describe, test } from "node:test";
import { cliPath, repositoryRoot, wireHandlers } from "./support/wire-handlers.mjs";

const line = (merchandiseId, quantity) => ({ merchandiseId, productId: `p-${merchandiseId}`, quantity, attributes: { size: "M" } });
const offer = (offerId, quantity) => ({ offerId, imageUrls: [], availability: 1, price: "10.50", currency: "EUR", quantity });

let client; // the generated module
let directory;
const routers = [];
after(async () => {
    await Promise.all(routers.map((router) => router.close()));
    if (directory) rmSync(directory, { recursive: true, force: true });
});

/** A router and a client connected to it, as a page in the app would be. */
async function connected(options = {}) {
    const router = wireHandlers(options);
    routers.push(router);
    const sb = client.connect({ handlers: router.handlers, events: router.events, ...options.connect });
    return { router, sb };
}

function requireCLI() {
    const cli = cliPath();
    assert.ok(existsSync(cli), `no switchboard-cli at ${cli}: run \`swift build --product switchboard-cli\` or set SWITCHBOARD_CLI`);
    const push = spawnSync(cli, ["--push", "--quiet"], { input: "", encoding: "utf8" });
    assert.equal(push.status, 0, `\`switchboard-cli --push\` must be supported (issue 27): ${push.stderr.split("\n")[0]}`);
    assert.match(push.stdout, /^\{"manifest":\{/, "with --push, the CLI writes the manifest first");
    directory = mkdtempSync(join(tmpdir(), "switchboard-wire-"));
    try {
        execFileSync(cli, ["client", "--out", directory], { stdio: "pipe" });
    } catch (error) {
        assert.fail(`\`switchboard-cli client --out DIR\` must be supported (issue 27): ${String(error.stderr).split("\n")[0]}`);
    }
}

describe("the generated client against switchboard-cli --push", () => {
    before(async () => {
        requireCLI();
        const runtime = readFileSync(join(repositoryRoot, "Client/switchboard-runtime.js"), "utf8");
        assert.ok(readFileSync(join(directory, "switchboard.js"), "utf8").startsWith(runtime),
            "the generated module starts with switchboard-runtime.js verbatim (else the CLI was built before its last "
            + "change: run tools/embed-client-runtime.py and rebuild)");
        client = await import(pathToFileURL(join(directory, "switchboard.js")).href);
    });

    test("ready resolves with the router's manifest, and every channel of the contract is live", async () => {
        const { router, sb } = await connected();
        const manifest = await sb.ready;
        assert.deepEqual(manifest, router.manifest);
        assert.ok(manifest.channels.includes("addCartLine"));
        assert.equal(typeof manifest.contracts?.addCartLine, "string", "the manifest has per-channel digests");
        for (const name of ["addCartLine", "removeCartLine", "productCartGetState", "productCartUpdate", "sdkReady"]) {
            assert.equal(sb.isAvailable(name), true, `${name} is live`);
        }
    });

    test("a page that connects after the app published its manifest is ready at once", async () => {
        const router = wireHandlers();
        routers.push(router);
        const published = await router.firstManifest;
        globalThis.switchboard = { manifest: published };
        try {
            const sb = client.connect({ handlers: router.handlers, events: router.events });
            assert.equal(sb.manifest, published);
            assert.equal(await sb.ready, published);
        } finally {
            delete globalThis.switchboard;
        }
    });

    test("send, request and push go through the real router", async () => {
        const { router, sb } = await connected();
        await sb.ready;
        const pushes = [];
        const stop = sb.on.cartChanged((cart) => pushes.push(cart));
        assert.equal(await sb.send.sdkReady(), undefined);
        const cart = await sb.request.productCartUpdate({ offer: offer("36512", 2) });
        assert.equal(cart.price, "21.00");
        assert.equal(cart.priceCurrency, "EUR");
        assert.deepEqual(await sb.request.productCartGetState(), cart);
        assert.equal(pushes.length, 1, "one cartChanged push, before the reply");
        assert.deepEqual(pushes[0].offers, cart.offers, "the push holds the cart the request replied");
        assert.equal(pushes[0].price, cart.price);
        stop();
        await sb.request.productCartUpdate({ offer: offer("36512", 0) });
        assert.equal(pushes.length, 1, "no push after unsubscribing");
        assert.equal(router.pushes.length, 2);
    });

    test("a handler's failure is kind failed, naming the channel", async () => {
        const { sb } = await connected();
        await sb.ready;
        await sb.send.addCartLine(line("m1", 1));
        const missing = { ...line("m1", 1), lineId: "gid://shopify/CartLine/9" };
        await assert.rejects(sb.send.removeCartLine(missing), (error) => {
            assert.ok(error instanceof client.SwitchboardError);
            assert.equal(error.kind, "failed");
            assert.equal(error.channel, "removeCartLine");
            assert.match(error.message, /CartLine\/9/);
            return true;
        });
    });

    test("a body that does not decode is kind invalid, with the path in its message", async () => {
        const { sb } = await connected();
        await sb.ready;
        await assert.rejects(sb.send.addCartLine({ ...line("m1", 1), quantity: "2" }), (error) => {
            assert.equal(error.kind, "invalid");
            assert.equal(error.channel, "addCartLine");
            assert.match(error.message, /^body\.quantity: expected an integer, found a string/);
            return true;
        });
    });

    test("the origin policy rejects another origin and a sub-frame", async () => {
        const args = ["--allow-origin", "https://shop.example.com"];
        const evil = await connected({ args, origin: "https://shop.example.com.evil.net", mainFrame: true });
        await evil.sb.ready;
        await assert.rejects(evil.sb.request.productCartGetState(), (error) => {
            assert.equal(error.kind, "rejected");
            assert.equal(error.channel, "productCartGetState");
            assert.match(error.message, /origin https:\/\/shop\.example\.com\.evil\.net is not allowed/);
            return true;
        });
        const frame = await connected({ args, origin: "https://shop.example.com", mainFrame: false });
        await frame.sb.ready;
        await assert.rejects(frame.sb.send.sdkReady(), { kind: "rejected" });
        const shop = await connected({ args, origin: "https://shop.example.com", mainFrame: true });
        await shop.sb.ready;
        assert.equal((await shop.sb.request.productCartGetState()).price, "0");
    });

    test("a feature that is off leaves the other channels working, and is not posted to", async () => {
        const { router, sb } = await connected({ args: ["--only", "addCartLine,removeCartLine"] });
        const manifest = await sb.ready;
        assert.equal(manifest.features.productCart, false);
        assert.equal(sb.isAvailable("addCartLine"), true);
        assert.equal(sb.isAvailable("productCartGetState"), false);
        await sb.contractCheck; // the hello's answer is in
        const before = router.lines.length;
        await assert.rejects(sb.request.productCartGetState(), { kind: "unavailable", channel: "productCartGetState" });
        assert.equal(router.lines.length, before, "nothing was posted");
        await sb.send.addCartLine(line("m1", 1));
    });

    test("an event the app has no handler for is kind unhandled", async () => {
        const router = wireHandlers({ args: ["--only", "addCartLine,removeCartLine"] });
        routers.push(router);
        // A page told (wrongly) that productCartClicked is live: the router has no handler for it.
        const sb = client.connect({ handlers: router.handlers, events: new EventTarget(), manifest: { channels: ["productCartClicked"], features: {} } });
        await assert.rejects(sb.send.productCartClicked(), { kind: "unhandled", channel: "productCartClicked" });
    });

    test("a channel whose contract differs is unavailable; the others still work", async () => {
        const source = readFileSync(join(directory, "switchboard.js"), "utf8");
        const digest = /"addCartLine":\{"kind":"event","digest":"(sha256:[0-9a-f]+)"\}/.exec(source)?.[1];
        assert.ok(digest, "the generated table holds addCartLine's digest");
        const skewed = join(directory, "skewed.js");
        writeFileSync(skewed, source.replace(digest, `sha256:${"0".repeat(64)}`));
        const older = await import(pathToFileURL(skewed).href);
        const router = wireHandlers();
        routers.push(router);
        const sb = older.connect({ handlers: router.handlers, events: router.events });
        await sb.ready;
        assert.equal(sb.isAvailable("addCartLine"), false);
        await assert.rejects(sb.send.addCartLine(line("m1", 1)), (error) => {
            assert.equal(error.kind, "unavailable");
            assert.match(error.message, /contract for this channel differs/);
            return true;
        });
        assert.equal((await sb.request.productCartGetState()).price, "0");
        // Connected late: the router published its manifest before, as the app's global holds it.
        const lenient = older.connect({ handlers: router.handlers, events: router.events, manifest: router.manifest, allowContractSkew: true });
        await lenient.ready;
        await lenient.send.addCartLine(line("m1", 1));
    });

    test("the client states its digests once per connect: the same contract differs on nothing", async () => {
        const { router, sb } = await connected();
        assert.deepEqual(await sb.contractCheck, []);
        assert.deepEqual(sb.differing, []);
        await sb.send.sdkReady();
        const hellos = router.lines.map((text) => JSON.parse(text)).filter((line) => line.outcome === "hello");
        assert.equal(hellos.length, 1, "one hello, not one per message");
        assert.deepEqual(hellos[0].differing, []);
    });

    test("a page built against another contract hears which channels differ", async () => {
        const source = readFileSync(join(directory, "switchboard.js"), "utf8");
        const digest = /"removeCartLine":\{"kind":"event","digest":"(sha256:[0-9a-f]+)"\}/.exec(source)?.[1];
        assert.ok(digest, "the generated table holds removeCartLine's digest");
        const skewed = join(directory, "skewed-hello.js");
        writeFileSync(skewed, source.replace(digest, `sha256:${"1".repeat(64)}`));
        const older = await import(pathToFileURL(skewed).href);
        const router = wireHandlers({ args: ["--only", "addCartLine,sdkReady"] });
        routers.push(router);
        const sb = older.connect({ handlers: router.handlers, events: router.events });
        await sb.ready;
        // removeCartLine: its digest differs; the productCart channels: the app (--only) has none of them.
        const differing = await sb.contractCheck;
        assert.ok(differing.includes("removeCartLine"), `differing: ${differing}`);
        assert.ok(differing.includes("productCartGetState"));
        assert.ok(!differing.includes("addCartLine") && !differing.includes("sdkReady"));
        await sb.send.addCartLine(line("m1", 1));
    });

    test("the CLI answers a hello line and says which channels differ on stderr", () => {
        const input = `${JSON.stringify({ hello: { contracts: { addCartLine: "sha256:old" } }, id: "h1" })}\n{"name":"sdkReady"}\n`;
        const run = spawnSync(cliPath(), [], { input, encoding: "utf8" });
        assert.equal(run.status, 0, run.stderr);
        assert.equal(run.stdout.split("\n")[0], '{"line":1,"id":"h1","outcome":"hello","differing":["addCartLine"]}');
        assert.match(run.stderr, /contract skew: addCartLine: the page was built against contract "sha256:old"; the app's is sha256:/);
        assert.match(run.stderr, /2 messages: 1 handled, .*1 hello/);
    });

    test("a router that exits fails the calls with kind unavailable", async () => {
        const { router, sb } = await connected();
        await sb.ready;
        await router.kill();
        await assert.rejects(sb.request.productCartGetState(), (error) => {
            assert.equal(error.kind, "unavailable");
            assert.match(error.message, /the router exited/);
            return true;
        });
    });
});
