// A `window.webkit.messageHandlers` stand-in backed by the real router: it spawns
// `switchboard-cli --push`, writes each `postMessage` as an NDJSON wire message on the CLI's
// stdin and settles it from the CLI's outcome line (matched by `id`), as WebKit would:
//   replied -> the reply; handled -> null; a line with an "error" -> rejected with the JSON
//   text of the envelope {kind, channel, message, data?}; unhandled -> kind "noResponder".
// `{"manifest":…}` and `{"push":…,"body":…}` lines become `switchboard:manifest` and
// `switchboard:push` events on `events`, as the WebKit adapter's scripts make them on `window`.
// `handlers[globalName]` takes the page's hello, as the bridge's handler of that name does: it is
// written as a `{"hello":…}` line and settled with `{differing}` from its `hello` outcome line.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

export const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");

/** The CLI to run: `$SWITCHBOARD_CLI`, or the debug build of this repository. */
export function cliPath() {
    return process.env.SWITCHBOARD_CLI || resolve(repositoryRoot, ".build/debug/switchboard-cli");
}

/**
 * Starts a router. Options: `cli` (path), `args` (more CLI arguments, e.g. ["--allow-origin", "https://a.example"]),
 * `origin` and `mainFrame` (sent with every message, as WebKit's frame info), `globalName` (event names).
 * Returns `{ handlers, events, manifest, manifests, pushes, lines, firstManifest, exited, close() }`.
 */
export function wireHandlers(options = {}) {
    const cli = options.cli ?? cliPath();
    if (!existsSync(cli)) {
        throw new Error(`no switchboard-cli at ${cli}: run \`swift build --product switchboard-cli\` or set SWITCHBOARD_CLI`);
    }
    const globalName = options.globalName ?? "switchboard";
    const child = spawn(cli, ["--push", "--quiet", ...(options.args ?? [])], { stdio: ["pipe", "pipe", "pipe"] });
    const events = new EventTarget();
    const pending = new Map(); // id -> { name, resolve, reject }
    const wire = {
        handlers: null,
        events,
        /** The latest manifest the router wrote, or null. */
        manifest: null,
        /** Every manifest and push, in order, and every line read from stdout. */
        manifests: [],
        pushes: [],
        lines: [],
        stderr: "",
        exitStatus: null,
        firstManifest: null,
        exited: null,
        close,
    };
    let nextId = 1;
    let gone = null; // why no more messages can be routed
    let sawManifest;
    wire.firstManifest = new Promise((resolve, reject) => { sawManifest = { resolve, reject }; });
    wire.firstManifest.catch(() => {});

    const envelope = (kind, channel, message, data) =>
        JSON.stringify(data === undefined ? { kind, channel, message } : { kind, channel, message, data });

    const fail = (why) => {
        gone = why;
        for (const [, call] of pending) call.reject(envelope("unavailable", call.name, `${call.name}: ${why}`));
        pending.clear();
        sawManifest.reject(new Error(why));
    };

    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (text) => { wire.stderr += text; });
    child.stdin.on("error", () => {}); // a router that exited: reported by "exit" below
    wire.exited = new Promise((resolve) => {
        child.on("exit", (status, signal) => {
            wire.exitStatus = status ?? signal;
            const detail = wire.stderr.trim().split("\n").slice(-3).join(" / ");
            fail(`the router exited (${signal ?? `status ${status}`})${detail ? `: ${detail}` : ""}`);
            resolve(wire.exitStatus);
        });
        child.on("error", (error) => { fail(`the router could not be started: ${error.message}`); resolve(null); });
    });

    createInterface({ input: child.stdout }).on("line", (text) => {
        wire.lines.push(text);
        let line;
        try {
            line = JSON.parse(text);
        } catch (_) {
            return;
        }
        if (line === null || typeof line !== "object") return;
        if ("manifest" in line) {
            wire.manifest = line.manifest;
            wire.manifests.push(line.manifest);
            sawManifest.resolve(line.manifest);
            events.dispatchEvent(new CustomEvent(`${globalName}:manifest`, { detail: line.manifest }));
            return;
        }
        if ("push" in line) {
            if ("error" in line) return; // a push the app could not encode never reaches the page
            const detail = { name: line.push, body: line.body };
            wire.pushes.push(detail);
            events.dispatchEvent(new CustomEvent(`${globalName}:push`, { detail }));
            return;
        }
        const call = pending.get(String(line.id));
        if (call === undefined) return;
        pending.delete(String(line.id));
        if (line.outcome === "hello") {
            call.resolve({ differing: line.differing });
        } else if (line.outcome === "replied") {
            call.resolve(line.reply);
        } else if (line.outcome === "handled") {
            call.resolve(null);
        } else if (line.error !== null && typeof line.error === "object") {
            const error = line.error;
            const kind = error.kind ?? line.kind;
            const channel = error.channel ?? line.channel ?? call.name;
            if (typeof kind !== "string") {
                call.reject(`the CLI wrote an error without "kind" (it predates the error envelope): ${text}`);
            } else {
                // WebKit's envelope names the key path of a body that did not decode in its message.
                const message = typeof error.path === "string" ? `${error.path}: ${error.message}` : error.message;
                call.reject(envelope(kind, channel, message, error.data));
            }
        } else if (line.outcome === "unhandled") {
            call.reject(envelope("noResponder", call.name, `${call.name}: no responder is registered`));
        } else {
            call.reject(`an outcome line the shim does not know: ${text}`);
        }
    });

    const postMessage = (name, body) => new Promise((resolve, reject) => {
        if (gone !== null) {
            reject(envelope("unavailable", name, `${name}: ${gone}`));
            return;
        }
        const id = `m${nextId++}`;
        const message = name === globalName ? { hello: body, id } : { name, body, id };
        if (options.origin !== undefined) message.origin = options.origin;
        if (options.mainFrame !== undefined) message.mainFrame = options.mainFrame;
        pending.set(id, { name, resolve, reject });
        child.stdin.write(`${JSON.stringify(message)}\n`);
    });
    // Every name has a handler, as for an app that registered them all; the router says what it handles.
    wire.handlers = new Proxy({}, {
        get: (_, name) => (typeof name === "string" ? { postMessage: (body) => postMessage(name, body) } : undefined),
    });

    /** Closes the router's stdin and waits for it to exit. */
    function close() {
        if (wire.exitStatus === null) child.stdin.end();
        return wire.exited;
    }
    /** Kills the router (a crash, for tests). */
    wire.kill = (signal = "SIGKILL") => { child.kill(signal); return wire.exited; };
    wire.pid = child.pid;
    return wire;
}

export { wireHandlers as createWireHandlers };
export default wireHandlers;
