// Switchboard page client: the hand-written runtime of the generated `switchboard.js`.
// `switchboard-cli client --out DIR` writes this file verbatim, then a tail with the contract's
// channel table and `export function connect(options) { return createClient(contract, options); }`.
// Dependency-free ES2020; runs in WKWebView, any browser and Node 18+. See docs/web-client.md.

const KINDS = ["unavailable", "rejected", "noResponder", "timedOut", "dropped", "invalid", "failed", "unhandled"];

/** A failed call, as data: `kind` (one of the eight above), `channel`, `message`, and `data` when a
 * responder failed with a typed error. The same envelope the app writes in WebKit's reply error. */
export class SwitchboardError extends Error {
    constructor(kind, channel, message, data) {
        super(message);
        this.kind = kind;
        this.channel = channel;
        this.data = data;
    }

    toJSON() {
        const envelope = { kind: this.kind, channel: this.channel, message: this.message };
        if (this.data !== undefined) envelope.data = this.data;
        return envelope;
    }
}
SwitchboardError.prototype.name = "SwitchboardError";

const isObject = (value) => typeof value === "object" && value !== null && !Array.isArray(value);

/** The manifest in `value`, or null when it is not one (a garbage event detail is ignored). */
function manifestFrom(value) {
    if (!isObject(value) || !Array.isArray(value.channels)) return null;
    if (!value.channels.every((name) => typeof name === "string")) return null;
    return value;
}

/** A rejection from a transport (the envelope's JSON text, an Error holding it, anything) as a SwitchboardError. */
function errorFrom(reason, channel, isEvent) {
    if (reason instanceof SwitchboardError) return reason;
    let text = typeof reason === "string" ? reason : reason instanceof Error ? reason.message : undefined;
    let envelope = isObject(reason) && !(reason instanceof Error) ? reason : undefined;
    if (text !== undefined) {
        try {
            envelope = JSON.parse(text);
        } catch (_) {
            envelope = undefined;
        }
    } else if (envelope === undefined) {
        text = String(reason);
    }
    if (isObject(envelope) && KINDS.includes(envelope.kind) && typeof envelope.message === "string") {
        // WebKit says noResponder for an event nobody handles; to the page that event is unhandled.
        const kind = envelope.kind === "noResponder" && isEvent ? "unhandled" : envelope.kind;
        const named = typeof envelope.channel === "string" ? envelope.channel : channel;
        return new SwitchboardError(kind, named, envelope.message, envelope.data);
    }
    if (text === undefined) text = JSON.stringify(reason) ?? String(reason);
    return new SwitchboardError("failed", channel, text || `${channel}: the call failed`, undefined);
}

/** Reports an error thrown by a page's callback without stopping the other callbacks. */
function report(error) {
    if (typeof globalThis.reportError === "function") globalThis.reportError(error);
    else setTimeout(() => { throw error; });
}

/** The dev server's transport (`switchboard-dev`): a POST per message, Server-Sent Events for the
 * manifest and pushes. Used when the page has no `window.webkit` and the dev server injected
 * `window.<globalName>.dev = { endpoint, session }`. */
function devTransport(dev, globalName, onDown) {
    const url = (path) => `${dev.endpoint}/${path}?session=${encodeURIComponent(String(dev.session ?? ""))}`;
    const events = new EventTarget();
    const source = new EventSource(url("events"));
    const relay = (type, name) => source.addEventListener(type, (event) => {
        let detail;
        try {
            detail = JSON.parse(event.data);
        } catch (_) {
            return;
        }
        if (type === "down") {
            source.close();
            const why = isObject(detail) && typeof detail.message === "string" ? detail.message : "the router stopped";
            console.error(`switchboard: the app is unavailable: ${why}`);
            onDown(why);
        } else {
            events.dispatchEvent(Object.assign(new Event(name), { detail }));
        }
    });
    relay("manifest", `${globalName}:manifest`);
    relay("push", `${globalName}:push`);
    relay("down");
    source.onerror = () => {
        if (source.readyState !== 2) return;
        console.error(`switchboard: lost the dev server at ${dev.endpoint}; reload the page`);
        onDown(`lost the dev server at ${dev.endpoint}; reload the page`);
    };
    const post = async (name, body) => {
        const unavailable = (why) => JSON.stringify({ kind: "unavailable", channel: name, message: `${name}: ${why}` });
        const message = JSON.stringify({ name, body, mainFrame: globalThis.top === globalThis });
        let response;
        try {
            const headers = { "content-type": "application/json" };
            response = await fetch(url("message"), { method: "POST", body: message, headers });
        } catch (error) {
            throw unavailable(`the dev server at ${dev.endpoint} cannot be reached (${error.message})`);
        }
        const text = await response.text();
        let answer;
        try {
            answer = JSON.parse(text);
        } catch (_) {
            throw unavailable(`the dev server answered ${response.status} without an outcome: ${text.slice(0, 200)}`);
        }
        if (isObject(answer) && "error" in answer) throw JSON.stringify(answer.error);
        return isObject(answer) ? answer.reply : undefined;
    };
    return { post, events, close: () => source.close() };
}

/**
 * A client for the channels of `contract` (`{contract, channels: {name: {kind, digest}}}`, kinds
 * `event`, `request` and `push`). Options: `handlers` (shaped like `window.webkit.messageHandlers`),
 * `manifest`, `events` (where manifest and push events arrive, default `globalThis`), `globalName`
 * (default "switchboard"), `allowContractSkew`, `readyTimeout` (ms, default 10000; 0 waits forever).
 */
export function createClient(contract, options = {}) {
    const globalName = options.globalName ?? "switchboard";
    const root = isObject(globalThis[globalName]) ? globalThis[globalName] : undefined;
    const table = isObject(contract) && isObject(contract.channels) ? contract.channels : {};
    const kindOf = (name) => (Object.prototype.hasOwnProperty.call(table, name) && isObject(table[name])
        ? table[name].kind : undefined);
    const names = Object.keys(table).filter((name) => ["event", "request", "push"].includes(kindOf(name)));

    let manifest = manifestFrom(options.manifest ?? root?.manifest);
    let down = null; // why nothing is available (no transport, closed, the dev router stopped), or null
    let events = options.events ?? (typeof globalThis.addEventListener === "function" ? globalThis : null);
    let post = null;
    // Posts the page's hello ({contracts}) to the app's handler named `globalName`; null without one.
    let postHello = null;
    let closeTransport = () => {};
    const handlers = options.handlers ?? globalThis.webkit?.messageHandlers;
    if (handlers != null) {
        post = (name, body) => {
            const handler = handlers[name];
            if (handler == null || typeof handler.postMessage !== "function") {
                throw new SwitchboardError("unavailable", name, `${name}: the app has no message handler for it`);
            }
            return handler.postMessage(body);
        };
        postHello = (statement) => {
            const handler = handlers[globalName];
            if (handler == null || typeof handler.postMessage !== "function") return null; // an app without it
            return handler.postMessage(statement);
        };
    } else if (isObject(root?.dev) && typeof root.dev.endpoint === "string" && typeof EventSource === "function") {
        const dev = devTransport(root.dev, globalName, (why) => stop(`the app is unavailable: ${why}`));
        post = dev.post;
        postHello = (statement) => dev.post(globalName, statement);
        events = dev.events;
        closeTransport = dev.close;
    } else {
        down = "not running in the app: there is no window.webkit.messageHandlers "
            + "(pass connect({ handlers }) to use the client without the app)";
    }

    // Availability: the transport is up, the channel is in the manifest (`pushes` lists push channels),
    // and where the manifest gives the channel's contract digest, it is the page's (unless allowContractSkew).
    const whyNot = (name) => {
        if (down !== null) return `${name}: ${down}`;
        if (kindOf(name) === undefined) return `${name}: not a channel of this page's contract`;
        if (manifest === null) return `${name}: the app has not published its manifest yet (await sb.ready first)`;
        const pushes = kindOf(name) === "push" && Array.isArray(manifest.pushes) ? manifest.pushes : [];
        if (!manifest.channels.includes(name) && !pushes.includes(name)) {
            return `${name}: not live in the app (not in the manifest's channels)`;
        }
        const theirs = isObject(manifest.contracts) ? manifest.contracts[name] : undefined;
        const ours = table[name].digest;
        if (theirs !== undefined && theirs !== ours && !options.allowContractSkew) {
            return `${name}: the app's contract for this channel differs from the page's `
                + `(app ${theirs}, page ${ours}); `
                + "regenerate switchboard.js, or connect({ allowContractSkew: true })";
        }
        return null;
    };
    const availability = () => Object.freeze(Object.fromEntries(names.map((name) => [name, whyNot(name) === null])));

    const availabilityListeners = new Set();
    const pushListeners = new Map(names.map((name) => [name, new Set()]));
    const notify = (listeners, ...args) => {
        for (const listener of [...listeners]) {
            try {
                listener(...args);
            } catch (error) {
                report(error);
            }
        }
    };

    let settle;
    const ready = new Promise((resolve, reject) => { settle = { resolve, reject }; });
    ready.catch(() => {}); // nobody has to await it: no unhandled rejection
    let timer = null;
    const settleReady = (how, value) => {
        if (settle === null) return;
        settle[how](value);
        settle = null;
        if (timer !== null) clearTimeout(timer);
    };

    const onManifest = (event) => {
        const next = manifestFrom(event?.detail);
        if (next === null || down !== null) return;
        manifest = next;
        settleReady("resolve", manifest);
        notify(availabilityListeners, availability(), manifest);
    };
    const onPush = (event) => {
        const detail = event?.detail;
        if (!isObject(detail) || typeof detail.name !== "string" || kindOf(detail.name) !== "push") return;
        notify(pushListeners.get(detail.name) ?? [], detail.body);
    };
    const listening = events !== null && typeof events.addEventListener === "function" && down === null;
    if (listening) {
        events.addEventListener(`${globalName}:manifest`, onManifest);
        events.addEventListener(`${globalName}:push`, onPush);
    }

    function stop(why) {
        if (down !== null) return;
        down = why;
        if (listening) {
            events.removeEventListener(`${globalName}:manifest`, onManifest);
            events.removeEventListener(`${globalName}:push`, onPush);
        }
        closeTransport();
        settleReady("reject", new SwitchboardError("unavailable", null, why));
        notify(availabilityListeners, availability(), manifest);
    }

    if (down !== null) {
        settleReady("reject", new SwitchboardError("unavailable", null, down));
    } else if (manifest !== null) {
        settleReady("resolve", manifest);
    } else if (!listening) {
        const why = "no manifest: the app has not published one and there are no events to deliver it";
        settleReady("reject", new SwitchboardError("unavailable", null, why));
    } else if ((options.readyTimeout ?? 10000) > 0) {
        const ms = options.readyTimeout ?? 10000;
        timer = setTimeout(() => {
            const why = `the app published no manifest within ${ms} ms`;
            settleReady("reject", new SwitchboardError("unavailable", null, why));
        }, ms);
    }

    // The hello: once per connect(), the page states the digest of each channel's contract it was built
    // against; the app reports a contractSkew diagnostic per channel that differs and answers which.
    // An app (or dev server) that predates it, or any failure, leaves `differing` null: never an error.
    let differing = null;
    const contractCheck = (async () => {
        if (down !== null || postHello === null) return null;
        const contracts = Object.fromEntries(names.filter((name) => typeof table[name].digest === "string")
            .map((name) => [name, table[name].digest]));
        try {
            const answer = await postHello({ contracts });
            if (!isObject(answer) || !Array.isArray(answer.differing)) return null;
            differing = Object.freeze(answer.differing.filter((name) => typeof name === "string"));
            return differing;
        } catch (_) {
            return null;
        }
    })();

    const call = async (name, body, isEvent) => {
        const why = whyNot(name);
        if (why !== null) throw new SwitchboardError("unavailable", name, why);
        try {
            const reply = await post(name, body);
            return isEvent ? undefined : reply;
        } catch (reason) {
            throw errorFrom(reason, name, isEvent);
        }
    };
    // Plain objects holding only the contract's channels of each kind (no Proxy): a misspelt name
    // is undefined, as its type is missing in the generated .d.ts.
    const channelsOf = (kind, make) => Object.freeze(Object.assign(Object.create(null), Object.fromEntries(
        names.filter((name) => kindOf(name) === kind).map((name) => [name, make(name)]))));

    return Object.freeze({
        ready,
        /** The app's current manifest, or null before it has one. */
        get manifest() { return manifest; },
        isAvailable: (name) => whyNot(name) === null,
        /** The channels the app said (answering this page's hello) its contract differs on, or null
         * before the answer and when the app does not answer hellos. */
        get differing() { return differing; },
        /** Resolves with `differing` once the app answered the hello (null when it does not); never rejects. */
        contractCheck,
        /** `callback(availability, manifest)` on each manifest change and when the transport goes down;
         * `availability` maps each of the contract's channels to whether it is live.
         * Returns an unsubscribe function. */
        onAvailabilityChange(callback) {
            availabilityListeners.add(callback);
            return () => { availabilityListeners.delete(callback); };
        },
        send: channelsOf("event", (name) => (body) => call(name, body, true)),
        request: channelsOf("request", (name) => (body) => call(name, body, false)),
        on: channelsOf("push", (name) => (callback) => {
            const listeners = pushListeners.get(name);
            const entry = (body) => callback(body);
            listeners.add(entry);
            return () => { listeners.delete(entry); };
        }),
        /** Stops listening for manifests and pushes; later calls reject with kind "unavailable". */
        close: () => stop("the client was closed (sb.close())"),
    });
}
