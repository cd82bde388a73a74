// A small Chrome DevTools Protocol driver for headless Chromium: launches the browser, speaks
// CDP over a minimal WebSocket client (RFC 6455 text frames on `net`; Node 20 has no global
// WebSocket), and offers what the browser test needs. No dependencies.
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { connect as connectTCP } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A WebSocket client for ws:// URLs: `send(text)`, `onmessage(text)`, `close()`. */
export function openWebSocket(url) {
    const { hostname, port, pathname, search } = new URL(url);
    return new Promise((resolve, reject) => {
        const socket = connectTCP(Number(port), hostname);
        const key = randomBytes(16).toString("base64");
        let buffer = Buffer.alloc(0);
        let open = false;
        const parts = [];
        const ws = {
            onmessage: () => {},
            onclose: () => {},
            send(text) { socket.write(frame(0x1, Buffer.from(text, "utf8"))); },
            close() { if (!socket.destroyed) { socket.write(frame(0x8, Buffer.alloc(0))); socket.end(); } },
        };
        socket.on("connect", () => {
            socket.write(`GET ${pathname}${search} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nUpgrade: websocket\r\n`
                + `Connection: Upgrade\r\nSec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`);
        });
        socket.on("error", (error) => (open ? ws.onclose(error) : reject(error)));
        socket.on("close", () => ws.onclose());
        socket.on("data", (chunk) => {
            buffer = Buffer.concat([buffer, chunk]);
            if (!open) {
                const end = buffer.indexOf("\r\n\r\n");
                if (end < 0) return;
                const head = buffer.subarray(0, end).toString("latin1");
                if (!/^HTTP\/1\.1 101/.test(head)) { reject(new Error(`no WebSocket upgrade: ${head.split("\r\n")[0]}`)); return; }
                open = true;
                buffer = buffer.subarray(end + 4);
                resolve(ws);
            }
            for (;;) {
                if (buffer.length < 2) return;
                const opcode = buffer[0] & 0x0f;
                const final = (buffer[0] & 0x80) !== 0;
                let length = buffer[1] & 0x7f;
                let offset = 2;
                if (length === 126) {
                    if (buffer.length < 4) return;
                    length = buffer.readUInt16BE(2);
                    offset = 4;
                } else if (length === 127) {
                    if (buffer.length < 10) return;
                    length = Number(buffer.readBigUInt64BE(2));
                    offset = 10;
                }
                if (buffer.length < offset + length) return;
                const payload = buffer.subarray(offset, offset + length);
                buffer = buffer.subarray(offset + length);
                if (opcode === 0x9) socket.write(frame(0xa, payload));
                else if (opcode === 0x8) socket.end();
                else if (opcode === 0x1 || opcode === 0x0) {
                    parts.push(Buffer.from(payload));
                    if (final) ws.onmessage(Buffer.concat(parts.splice(0)).toString("utf8"));
                }
            }
        });
    });
}

/** A client frame: FIN, `opcode`, masked payload. */
function frame(opcode, payload) {
    const mask = randomBytes(4);
    const length = payload.length;
    const head = length < 126 ? Buffer.alloc(2) : length < 65536 ? Buffer.alloc(4) : Buffer.alloc(10);
    head[0] = 0x80 | opcode;
    if (length < 126) head[1] = 0x80 | length;
    else if (length < 65536) { head[1] = 0x80 | 126; head.writeUInt16BE(length, 2); }
    else { head[1] = 0x80 | 127; head.writeBigUInt64BE(BigInt(length), 2); }
    const masked = Buffer.alloc(length);
    for (let index = 0; index < length; index += 1) masked[index] = payload[index] ^ mask[index % 4];
    return Buffer.concat([head, mask, masked]);
}

/** The Chromium to run: $CHROMIUM, or the first of chromium, chromium-browser, google-chrome on PATH. */
export function findChromium() {
    const names = [process.env.CHROMIUM, "chromium", "chromium-browser", "google-chrome", "google-chrome-stable"];
    for (const name of names.filter(Boolean)) {
        const found = spawnSync("sh", ["-c", `command -v "${name}"`], { encoding: "utf8" }).stdout.trim();
        if (found) return found;
    }
    return null;
}

/** Starts headless Chromium and connects to it. Returns a `Browser`. */
export async function launch(binary, { width = 1100, height = 800 } = {}) {
    const profile = mkdtempSync(join(tmpdir(), "switchboard-chromium-"));
    const args = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
        "--no-default-browser-check", "--disable-extensions", "--disable-background-networking", "--mute-audio",
        "--remote-debugging-port=0", `--user-data-dir=${profile}`, `--window-size=${width},${height}`, "about:blank"];
    const child = spawn(binary, args, { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    const url = await new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`Chromium did not start within 30 s:\n${stderr.slice(-2000)}`)), 30000);
        child.stderr.setEncoding("utf8");
        child.stderr.on("data", (text) => {
            stderr += text;
            const match = /DevTools listening on (ws:\/\/\S+)/.exec(stderr);
            if (match) { clearTimeout(timer); resolve(match[1]); }
        });
        child.on("exit", (status) => { clearTimeout(timer); reject(new Error(`Chromium exited (${status}):\n${stderr.slice(-2000)}`)); });
    });
    const ws = await openWebSocket(url);
    return new Browser(ws, child, profile);
}

export class Browser {
    constructor(ws, child, profile) {
        this.ws = ws;
        this.child = child;
        this.profile = profile;
        this.nextId = 1;
        this.calls = new Map();
        this.listeners = [];
        ws.onmessage = (text) => {
            const message = JSON.parse(text);
            if (message.id !== undefined) {
                const call = this.calls.get(message.id);
                this.calls.delete(message.id);
                if (message.error) call?.reject(new Error(`${call.method}: ${message.error.message}`));
                else call?.resolve(message.result);
            } else {
                for (const listener of this.listeners) listener(message);
            }
        };
    }

    /** Sends a CDP command (to a page when `sessionId` is given). */
    send(method, params = {}, sessionId) {
        const id = this.nextId++;
        this.ws.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
        return new Promise((resolve, reject) => this.calls.set(id, { resolve, reject, method }));
    }

    /** Opens a tab at `url`; returns a `Page`. */
    async open(url) {
        const { targetId } = await this.send("Target.createTarget", { url: "about:blank" });
        const { sessionId } = await this.send("Target.attachToTarget", { targetId, flatten: true });
        const page = new Page(this, sessionId, targetId);
        this.listeners.push((message) => { if (message.sessionId === sessionId) page.event(message); });
        await this.send("Page.enable", {}, sessionId);
        await this.send("Runtime.enable", {}, sessionId);
        await page.goto(url);
        return page;
    }

    async close() {
        try {
            await Promise.race([this.send("Browser.close"), new Promise((resolve) => setTimeout(resolve, 3000))]);
        } catch (_) {
            // already gone
        }
        this.ws.close();
        if (this.child.exitCode === null && this.child.signalCode === null) {
            const exited = new Promise((resolve) => this.child.once("exit", resolve));
            this.child.kill("SIGKILL");
            await exited;
        }
        rmSync(this.profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    }
}

export class Page {
    constructor(browser, sessionId, targetId) {
        this.browser = browser;
        this.sessionId = sessionId;
        this.targetId = targetId;
        this.console = []; // what the page logged, and its uncaught exceptions
    }

    event(message) {
        if (message.method === "Runtime.consoleAPICalled") {
            const text = message.params.args.map((arg) => arg.value ?? arg.description ?? "").join(" ");
            this.console.push(`console.${message.params.type}: ${text}`);
        } else if (message.method === "Runtime.exceptionThrown") {
            const details = message.params.exceptionDetails;
            this.console.push(`exception: ${details.exception?.description ?? details.text}`);
        }
    }

    send(method, params) { return this.browser.send(method, params, this.sessionId); }

    async goto(url) {
        await this.send("Page.navigate", { url });
    }

    /** The value of `expression` (awaited), evaluated in the page. */
    async evaluate(expression) {
        const { result, exceptionDetails } = await this.send("Runtime.evaluate",
            { expression, awaitPromise: true, returnByValue: true });
        if (exceptionDetails) throw new Error(`${expression}: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`);
        return result.value;
    }

    /** Waits until `expression` is truthy in the page (polling), or fails after `timeout` ms saying what was awaited. */
    async waitFor(expression, what, timeout = 15000) {
        const deadline = Date.now() + timeout;
        let last;
        while (Date.now() < deadline) {
            try {
                last = await this.evaluate(expression);
                if (last) return last;
            } catch (error) {
                last = error.message; // the page is navigating
            }
            await new Promise((resolve) => setTimeout(resolve, 50));
        }
        throw new Error(`timed out waiting for ${what} (${expression} was ${JSON.stringify(last)})\n`
            + `page console:\n  ${this.console.join("\n  ")}`);
    }

    click(selector) {
        return this.evaluate(`(() => { const element = document.querySelector(${JSON.stringify(selector)});
            if (!element) throw new Error("no element " + ${JSON.stringify(selector)});
            if (element.disabled) throw new Error(${JSON.stringify(selector)} + " is disabled");
            element.click(); return true; })()`);
    }

    async screenshot() {
        const { data } = await this.send("Page.captureScreenshot", { format: "png" });
        return Buffer.from(data, "base64");
    }

    close() { return this.browser.send("Target.closeTarget", { targetId: this.targetId }); }
}
