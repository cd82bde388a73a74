// The page client's runtime on its own, with fake handlers: every behaviour docs/web-client.md
// promises, and hostile input (handlers that throw, non-JSON errors, garbage events).
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { createClient, SwitchboardError } from "../../Client/switchboard-runtime.js";

const contract = {
    contract: "sha256:whole",
    channels: {
        addCartLine: { kind: "event", digest: "sha256:add" },
        sdkReady: { kind: "event", digest: "sha256:ready" },
        productCartGetState: { kind: "request", digest: "sha256:get" },
        cartChanged: { kind: "push", digest: "sha256:changed" },
    },
};

const manifest = (channels, contracts) => ({
    channels,
    features: { productCart: channels.includes("productCartGetState") },
    contract: "sha256:whole",
    ...(contracts ? { contracts } : {}),
});
const everything = manifest(["addCartLine", "sdkReady", "productCartGetState", "cartChanged"]);

/** Handlers that record what they were posted and answer with `answer(name, body)`. */
function fakeHandlers(answer = () => null) {
    const posted = [];
    const handlers = {};
    for (const name of ["addCartLine", "sdkReady", "productCartGetState", "cartChanged"]) {
        handlers[name] = {
            postMessage(body) {
                posted.push({ name, body });
                return Promise.resolve().then(() => answer(name, body));
            },
        };
    }
    return { handlers, posted };
}

const manifestEvent = (detail, name = "switchboard:manifest") => new CustomEvent(name, { detail });
const pushEvent = (detail, name = "switchboard:push") => new CustomEvent(name, { detail });
const tick = () => new Promise((resolve) => setImmediate(resolve));

/** Whether `promise` has settled after the pending microtasks ran (a setImmediate turn). */
async function settledNow(promise) {
    let settled = false;
    promise.then(() => { settled = true; }, () => { settled = true; });
    await tick();
    return settled;
}

const isError = (kind, extra = {}) => (error) => {
    assert.ok(error instanceof SwitchboardError, `a SwitchboardError, got ${error}`);
    assert.equal(error.kind, kind, error.message);
    for (const [key, value] of Object.entries(extra)) {
        if (value instanceof RegExp) assert.match(error[key], value);
        else assert.deepEqual(error[key], value);
    }
    return true;
};

describe("ready", () => {
    test("resolves with a manifest given to connect", async () => {
        const { handlers } = fakeHandlers();
        const sb = createClient(contract, { handlers, manifest: everything, events: new EventTarget() });
        assert.equal(await sb.ready, everything);
        assert.equal(sb.manifest, everything);
    });

    test("resolves with the manifest the app published before the page connected", async () => {
        globalThis.switchboard = { manifest: everything };
        try {
            const sb = createClient(contract, { handlers: fakeHandlers().handlers });
            assert.equal(await sb.ready, everything);
        } finally {
            delete globalThis.switchboard;
        }
    });

    test("waits for the first manifest event, then follows later ones", async () => {
        const events = new EventTarget();
        const sb = createClient(contract, { handlers: fakeHandlers().handlers, events });
        assert.equal(await settledNow(sb.ready), false);
        assert.equal(sb.manifest, null);
        assert.equal(sb.isAvailable("addCartLine"), false);
        const first = manifest(["addCartLine"]);
        events.dispatchEvent(manifestEvent(first));
        assert.equal(await sb.ready, first);
        assert.equal(sb.isAvailable("addCartLine"), true);
        events.dispatchEvent(manifestEvent(manifest([])));
        assert.equal(sb.isAvailable("addCartLine"), false);
        sb.close();
    });

    test("rejects at once with kind unavailable outside the app", async () => {
        assert.equal(globalThis.webkit, undefined);
        const sb = createClient(contract);
        assert.equal(await settledNow(sb.ready), true);
        await assert.rejects(sb.ready, isError("unavailable", { message: /not running in the app/ }));
        assert.equal(sb.isAvailable("addCartLine"), false);
    });

    test("rejects at once when there are handlers but nothing can deliver a manifest", async () => {
        const sb = createClient(contract, { handlers: fakeHandlers().handlers });
        await assert.rejects(sb.ready, isError("unavailable", { message: /no manifest/ }));
    });

    test("rejects after readyTimeout when no manifest comes", async () => {
        const sb = createClient(contract, { handlers: fakeHandlers().handlers, events: new EventTarget(), readyTimeout: 20 });
        await assert.rejects(sb.ready, isError("unavailable", { message: /no manifest within 20 ms/ }));
    });

    test("a rejected ready nobody awaits is no unhandled rejection", async () => {
        const unhandled = [];
        const record = (reason) => unhandled.push(reason);
        process.on("unhandledRejection", record);
        try {
            createClient(contract);
            createClient(contract, { handlers: {} });
            await tick();
            await tick();
        } finally {
            process.off("unhandledRejection", record);
        }
        assert.deepEqual(unhandled, []);
    });

    test("uses window.webkit.messageHandlers by default", async () => {
        const { handlers, posted } = fakeHandlers();
        globalThis.webkit = { messageHandlers: handlers };
        try {
            const sb = createClient(contract, { manifest: everything });
            await sb.ready;
            await sb.send.sdkReady();
            assert.deepEqual(posted, [{ name: "sdkReady", body: undefined }]);
        } finally {
            delete globalThis.webkit;
        }
    });

    test("follows the events of another globalName", async () => {
        const events = new EventTarget();
        const sb = createClient(contract, { handlers: fakeHandlers().handlers, events, globalName: "shop" });
        events.dispatchEvent(manifestEvent(everything));
        assert.equal(sb.manifest, null);
        events.dispatchEvent(manifestEvent(everything, "shop:manifest"));
        assert.equal(await sb.ready, everything);
    });
});

describe("availability", () => {
    test("a channel is available when it is in the manifest and its digest is the page's", () => {
        const { handlers } = fakeHandlers();
        const contracts = { addCartLine: "sha256:add", productCartGetState: "sha256:other" };
        const sb = createClient(contract, { handlers, manifest: manifest(["addCartLine", "productCartGetState"], contracts) });
        assert.equal(sb.isAvailable("addCartLine"), true);
        assert.equal(sb.isAvailable("productCartGetState"), false, "a differing digest");
        assert.equal(sb.isAvailable("sdkReady"), false, "not in the manifest");
        assert.equal(sb.isAvailable("wishlistGetState"), false, "not in the page's contract");
    });

    test("a push channel is live when the manifest lists it in pushes", () => {
        const sb = createClient(contract, { handlers: fakeHandlers().handlers, manifest: { ...manifest(["addCartLine"]), pushes: ["cartChanged"] } });
        assert.equal(sb.isAvailable("cartChanged"), true);
        const other = createClient(contract, { handlers: fakeHandlers().handlers, manifest: { ...manifest([]), pushes: ["addCartLine"] } });
        assert.equal(other.isAvailable("addCartLine"), false, "pushes lists push channels only");
        assert.equal(other.isAvailable("cartChanged"), false);
    });

    test("a manifest without per-channel digests decides by channels alone", () => {
        const sb = createClient(contract, { handlers: fakeHandlers().handlers, manifest: manifest(["productCartGetState"]) });
        assert.equal(sb.isAvailable("productCartGetState"), true);
    });

    test("a skewed channel does not break the others", async () => {
        const { handlers, posted } = fakeHandlers((name) => (name === "productCartGetState" ? { offers: [] } : null));
        const contracts = { addCartLine: "sha256:changed-in-the-app", productCartGetState: "sha256:get" };
        const sb = createClient(contract, { handlers, manifest: manifest(["addCartLine", "productCartGetState"], contracts) });
        await assert.rejects(sb.send.addCartLine({ quantity: 1 }), isError("unavailable", {
            channel: "addCartLine",
            message: /contract for this channel differs.*app sha256:changed-in-the-app, page sha256:add/,
        }));
        assert.deepEqual(await sb.request.productCartGetState(), { offers: [] });
        assert.deepEqual(posted.map((post) => post.name), ["productCartGetState"]);
    });

    test("allowContractSkew lets calls through", async () => {
        const { handlers, posted } = fakeHandlers();
        const sb = createClient(contract, {
            handlers,
            manifest: manifest(["addCartLine"], { addCartLine: "sha256:changed" }),
            allowContractSkew: true,
        });
        assert.equal(sb.isAvailable("addCartLine"), true);
        assert.equal(await sb.send.addCartLine({ quantity: 1 }), undefined);
        assert.equal(posted.length, 1);
    });

    test("onAvailabilityChange reports each manifest with a per-channel map until unsubscribed", () => {
        const events = new EventTarget();
        const sb = createClient(contract, { handlers: fakeHandlers().handlers, events });
        const seen = [];
        const stop = sb.onAvailabilityChange((availability, current) => seen.push({ availability, current }));
        const first = manifest(["addCartLine", "cartChanged"], { cartChanged: "sha256:changed" });
        events.dispatchEvent(manifestEvent(first));
        assert.deepEqual(seen, [{
            availability: { addCartLine: true, sdkReady: false, productCartGetState: false, cartChanged: true },
            current: first,
        }]);
        assert.ok(Object.isFrozen(seen[0].availability));
        stop();
        events.dispatchEvent(manifestEvent(manifest([])));
        assert.equal(seen.length, 1);
        sb.close();
    });

    test("a callback that throws is reported and the others still run", () => {
        const events = new EventTarget();
        const sb = createClient(contract, { handlers: fakeHandlers().handlers, events });
        const reported = [];
        globalThis.reportError = (error) => reported.push(error);
        try {
            let after = 0;
            sb.onAvailabilityChange(() => { throw new Error("page bug"); });
            sb.onAvailabilityChange(() => { after += 1; });
            events.dispatchEvent(manifestEvent(everything));
            assert.equal(after, 1);
            assert.deepEqual(reported.map((error) => error.message), ["page bug"]);
        } finally {
            sb.close();
            delete globalThis.reportError;
        }
    });

    test("a manifest event with garbage detail changes nothing", async () => {
        const events = new EventTarget();
        const sb = createClient(contract, { handlers: fakeHandlers().handlers, events, manifest: everything });
        let calls = 0;
        sb.onAvailabilityChange(() => { calls += 1; });
        for (const garbage of [null, undefined, "x", 42, [], { channels: "addCartLine" }, { channels: [1] }, { features: {} }]) {
            events.dispatchEvent(manifestEvent(garbage));
        }
        events.dispatchEvent(new Event("switchboard:manifest"));
        assert.equal(calls, 0);
        assert.equal(sb.manifest, everything);
        assert.equal(sb.isAvailable("addCartLine"), true);
        sb.close();
    });
});

describe("calls", () => {
    test("send posts the body and resolves undefined; request resolves with the reply", async () => {
        const cart = { offers: [], price: "0", priceCurrency: "" };
        const { handlers, posted } = fakeHandlers((name) => (name === "productCartGetState" ? cart : null));
        const sb = createClient(contract, { handlers, manifest: everything });
        const line = { merchandiseId: "m1", productId: "p1", quantity: 2, attributes: {} };
        assert.equal(await sb.send.addCartLine(line), undefined);
        assert.deepEqual(await sb.request.productCartGetState(), cart);
        assert.deepEqual(posted, [{ name: "addCartLine", body: line }, { name: "productCartGetState", body: undefined }]);
    });

    test("a channel that is not live rejects at once, without posting", async () => {
        const { handlers, posted } = fakeHandlers();
        const sb = createClient(contract, { handlers, manifest: manifest(["sdkReady"]) });
        const call = sb.send.addCartLine({ quantity: 1 });
        assert.equal(await settledNow(call), true);
        await assert.rejects(call, isError("unavailable", { channel: "addCartLine", message: /not live in the app/ }));
        assert.deepEqual(posted, []);
    });

    test("before a manifest, calls reject with a message saying so", async () => {
        const sb = createClient(contract, { handlers: fakeHandlers().handlers, events: new EventTarget() });
        await assert.rejects(sb.request.productCartGetState(), isError("unavailable", { message: /await sb.ready/ }));
        sb.close();
    });

    test("outside the app, calls reject with kind unavailable", async () => {
        const sb = createClient(contract, { manifest: everything });
        await assert.rejects(sb.send.sdkReady(), isError("unavailable", { message: /not running in the app/ }));
    });

    test("a channel in the manifest without a message handler is unavailable", async () => {
        const sb = createClient(contract, { handlers: {}, manifest: everything });
        await assert.rejects(sb.send.sdkReady(), isError("unavailable", { message: /no message handler/ }));
    });

    test("only the contract's channels exist, each under its kind", () => {
        const sb = createClient(contract, { handlers: fakeHandlers().handlers, manifest: everything });
        assert.deepEqual(Object.keys(sb.send).sort(), ["addCartLine", "sdkReady"]);
        assert.deepEqual(Object.keys(sb.request), ["productCartGetState"]);
        assert.deepEqual(Object.keys(sb.on), ["cartChanged"]);
        assert.equal(sb.send.productCartGetState, undefined);
        assert.equal(sb.send.addCartLin, undefined);
        assert.equal(sb.send.toString, undefined, "no inherited names");
        assert.ok(Object.isFrozen(sb.send) && Object.isFrozen(sb.request) && Object.isFrozen(sb.on) && Object.isFrozen(sb));
    });

    test("a contract table with garbage entries keeps its good channels", () => {
        const odd = { contract: "x", channels: { a: null, b: { kind: "teleport" }, c: { kind: "event", digest: "d" }, toString: 1 } };
        const sb = createClient(odd, { handlers: {}, manifest: manifest(["a", "b", "c"]) });
        assert.deepEqual(Object.keys(sb.send), ["c"]);
        assert.equal(sb.isAvailable("a"), false);
        assert.equal(sb.isAvailable("c"), true);
        assert.deepEqual(Object.keys(createClient(null, { handlers: {} }).send), []);
    });

    test("a handler that returns a plain value works", async () => {
        const handlers = { productCartGetState: { postMessage: () => ({ offers: [1] }) } };
        const sb = createClient(contract, { handlers, manifest: everything });
        assert.deepEqual(await sb.request.productCartGetState(), { offers: [1] });
    });
});

describe("errors", () => {
    const failingWith = (reason) => {
        const handlers = {};
        for (const name of ["addCartLine", "productCartGetState"]) {
            handlers[name] = { postMessage: () => Promise.reject(typeof reason === "function" ? reason(name) : reason) };
        }
        return createClient(contract, { handlers, manifest: everything });
    };

    test("the envelope's JSON text becomes the error's fields", async () => {
        const envelope = { kind: "failed", channel: "productCartGetState", message: "the cart is locked", data: { code: 7 } };
        const sb = failingWith(JSON.stringify(envelope));
        await assert.rejects(sb.request.productCartGetState(), isError("failed", {
            channel: "productCartGetState",
            message: "the cart is locked",
            data: { code: 7 },
        }));
    });

    test("every kind of the envelope comes through", async () => {
        for (const kind of ["unavailable", "rejected", "noResponder", "timedOut", "dropped", "invalid", "failed", "unhandled"]) {
            const sb = failingWith(JSON.stringify({ kind, channel: "productCartGetState", message: `${kind}!` }));
            await assert.rejects(sb.request.productCartGetState(), isError(kind, { message: `${kind}!`, data: undefined }));
        }
    });

    test("an Error whose message is the envelope's text (WebKit's reply error) is read the same", async () => {
        const sb = failingWith(new Error(JSON.stringify({ kind: "rejected", channel: "addCartLine", message: "origin" })));
        await assert.rejects(sb.send.addCartLine({}), isError("rejected", { channel: "addCartLine", message: "origin" }));
    });

    test("noResponder on an event channel is unhandled; on a request it stays noResponder", async () => {
        const sb = failingWith((channel) => JSON.stringify({ kind: "noResponder", channel, message: "nobody" }));
        await assert.rejects(sb.send.addCartLine({}), isError("unhandled", { channel: "addCartLine" }));
        await assert.rejects(sb.request.productCartGetState(), isError("noResponder"));
    });

    test("a text that is not the envelope is kind failed with the text as message", async () => {
        for (const text of ["productCartGetState: no responder is registered", "{not json", "42", '{"kind":"exploded","message":"x"}', '"a string"', ""]) {
            const sb = failingWith(text);
            await assert.rejects(sb.request.productCartGetState(), isError("failed", {
                channel: "productCartGetState",
                message: text || "productCartGetState: the call failed",
            }));
        }
    });

    test("rejections that are not text become kind failed", async () => {
        for (const [reason, message] of [[undefined, "undefined"], [null, "null"], [404, "404"], [new TypeError("boom"), "boom"]]) {
            await assert.rejects(failingWith(reason).request.productCartGetState(), isError("failed", { message }));
        }
    });

    test("a handler that throws synchronously rejects the call, never throws from it", async () => {
        const handlers = {
            addCartLine: { postMessage: () => { throw new TypeError("DataCloneError: cannot clone a function"); } },
            productCartGetState: { postMessage: () => { throw JSON.stringify({ kind: "invalid", channel: "productCartGetState", message: "m" }); } },
        };
        const sb = createClient(contract, { handlers, manifest: everything });
        let call;
        assert.doesNotThrow(() => { call = sb.send.addCartLine({ f() {} }); });
        await assert.rejects(call, isError("failed", { message: /DataCloneError/ }));
        await assert.rejects(sb.request.productCartGetState(), isError("invalid"));
    });

    test("SwitchboardError is an Error with the envelope's fields", () => {
        const error = new SwitchboardError("timedOut", "productCartUpdate", "no reply within 10 s");
        assert.ok(error instanceof Error);
        assert.equal(error.name, "SwitchboardError");
        assert.match(String(error), /^SwitchboardError: no reply within 10 s$/);
        assert.deepEqual(JSON.parse(JSON.stringify(error)), { kind: "timedOut", channel: "productCartUpdate", message: "no reply within 10 s" });
        assert.deepEqual(new SwitchboardError("failed", "x", "m", { a: 1 }).toJSON().data, { a: 1 });
    });
});

describe("push", () => {
    test("on.<push> subscribes to that channel's pushes until unsubscribed", () => {
        const events = new EventTarget();
        const sb = createClient(contract, { handlers: fakeHandlers().handlers, events, manifest: everything });
        const bodies = [];
        const stop = sb.on.cartChanged((body) => bodies.push(body));
        events.dispatchEvent(pushEvent({ name: "cartChanged", body: { offers: [] } }));
        events.dispatchEvent(pushEvent({ name: "addCartLine", body: "not a push channel" }));
        events.dispatchEvent(pushEvent({ name: "somethingElse", body: 1 }));
        for (const garbage of [null, "cartChanged", { body: 1 }, { name: 7 }]) events.dispatchEvent(pushEvent(garbage));
        events.dispatchEvent(new Event("switchboard:push"));
        stop();
        stop();
        events.dispatchEvent(pushEvent({ name: "cartChanged", body: { offers: [1] } }));
        assert.deepEqual(bodies, [{ offers: [] }]);
        sb.close();
    });

    test("the same callback subscribed twice is called twice, and each unsubscribe removes one", () => {
        const events = new EventTarget();
        const sb = createClient(contract, { handlers: fakeHandlers().handlers, events, manifest: everything });
        let calls = 0;
        const callback = () => { calls += 1; };
        const first = sb.on.cartChanged(callback);
        sb.on.cartChanged(callback);
        events.dispatchEvent(pushEvent({ name: "cartChanged", body: {} }));
        first();
        events.dispatchEvent(pushEvent({ name: "cartChanged", body: {} }));
        assert.equal(calls, 3);
        sb.close();
    });
});

describe("close", () => {
    test("stops listening, rejects a pending ready and later calls", async () => {
        const events = new EventTarget();
        const { handlers, posted } = fakeHandlers();
        const sb = createClient(contract, { handlers, events });
        const bodies = [];
        sb.on.cartChanged((body) => bodies.push(body));
        const changes = [];
        sb.onAvailabilityChange((availability) => changes.push(availability.addCartLine));
        sb.close();
        await assert.rejects(sb.ready, isError("unavailable", { message: /closed/ }));
        events.dispatchEvent(manifestEvent(everything));
        events.dispatchEvent(pushEvent({ name: "cartChanged", body: 1 }));
        assert.equal(sb.manifest, null);
        assert.deepEqual(bodies, []);
        assert.deepEqual(changes, [false]);
        await assert.rejects(sb.send.addCartLine({}), isError("unavailable", { message: /closed/ }));
        assert.deepEqual(posted, []);
        sb.close();
    });
});

describe("hello", () => {
    /** fakeHandlers plus the app's hello handler (`switchboard`), answering with `hello(body)`. */
    function withHello(hello) {
        const fake = fakeHandlers();
        const hellos = [];
        fake.handlers.switchboard = {
            postMessage(body) {
                hellos.push(body);
                return Promise.resolve().then(() => hello(body));
            },
        };
        return { ...fake, hellos };
    }

    test("states the table's digests once per connect and exposes what the app says differs", async () => {
        const { handlers, hellos, posted } = withHello(() => ({ differing: ["addCartLine"] }));
        const sb = createClient(contract, { handlers, manifest: everything });
        assert.equal(sb.differing, null, "nothing is known before the answer");
        assert.deepEqual(await sb.contractCheck, ["addCartLine"]);
        assert.deepEqual(sb.differing, ["addCartLine"]);
        assert.ok(Object.isFrozen(sb.differing));
        assert.deepEqual(hellos, [{ contracts: {
            addCartLine: "sha256:add", sdkReady: "sha256:ready", productCartGetState: "sha256:get", cartChanged: "sha256:changed",
        } }]);
        await sb.send.sdkReady();
        assert.equal(hellos.length, 1, "one hello per connect, not per message");
        assert.deepEqual(posted.map((post) => post.name), ["sdkReady"]);
        // The availability rule stays the manifest's (no per-channel digests here: all available).
        assert.equal(sb.isAvailable("addCartLine"), true);
        createClient(contract, { handlers, manifest: everything });
        assert.equal(hellos.length, 2, "another connect() is another page load");
    });

    test("an app without the hello handler, or one that refuses it, never fails ready", async () => {
        const { handlers } = fakeHandlers();
        const old = createClient(contract, { handlers, manifest: everything });
        assert.equal(await old.contractCheck, null);
        assert.equal(old.differing, null);
        assert.equal(await old.ready, everything);

        const invalid = JSON.stringify({ kind: "invalid", message: "switchboard: not a hello" });
        for (const answer of [() => Promise.reject(invalid), () => { throw new Error("boom"); }, () => "garbage",
            () => ({ differing: "addCartLine" }), () => null]) {
            const sb = createClient(contract, { handlers: withHello(answer).handlers, manifest: everything });
            assert.equal(await sb.contractCheck, null);
            assert.equal(sb.differing, null);
            assert.equal(await sb.ready, everything);
        }
        const mixed = createClient(contract, {
            handlers: withHello(() => ({ differing: ["sdkReady", 7, null] })).handlers, manifest: everything });
        assert.deepEqual(await mixed.contractCheck, ["sdkReady"], "only names are kept");
    });

    test("the hello goes to the handler named after globalName, and not at all without a transport", async () => {
        const { handlers, hellos } = withHello(() => ({ differing: [] }));
        handlers.shop = handlers.switchboard;
        delete handlers.switchboard;
        const sb = createClient(contract, { handlers, manifest: everything, globalName: "shop", events: new EventTarget() });
        assert.deepEqual(await sb.contractCheck, []);
        assert.equal(hellos.length, 1);
        const outside = createClient(contract, { events: new EventTarget() });
        assert.equal(await outside.contractCheck, null);
    });
});
