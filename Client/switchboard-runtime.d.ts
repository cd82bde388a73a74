// Switchboard page client: the hand-written declarations of the generated `switchboard.d.ts`.
// The generator appends the contract's body and reply types and `connect`, e.g.
//   export declare function connect(options?: ConnectOptions): Switchboard<
//     { addCartLine: AddCartLine; sdkReady: void },                      // events: name -> body
//     { productCartGetState: [void, ProductCart] },                      // requests: name -> [body, reply]
//     { cartChanged: ProductCart }>;                                     // pushes: name -> body

/** What went wrong, as the app's error envelope says. */
export type ErrorKind =
    | "unavailable"
    | "rejected"
    | "noResponder"
    | "timedOut"
    | "dropped"
    | "invalid"
    | "failed"
    | "unhandled";

/** The error envelope: WebKit's reply error string is its JSON text. */
export interface ErrorEnvelope {
    kind: ErrorKind;
    channel: string | null;
    message: string;
    data?: unknown;
}

/** A failed call: `kind` says what failed, `data` holds a responder's typed error when it gave one. */
export declare class SwitchboardError extends Error {
    constructor(kind: ErrorKind, channel: string | null, message: string, data?: unknown);
    readonly kind: ErrorKind;
    /** The channel called (null when the failure is not one channel's, e.g. `ready`). */
    readonly channel: string | null;
    readonly data?: unknown;
    toJSON(): ErrorEnvelope;
}

/** What the app publishes as `window.switchboard.manifest` and in `switchboard:manifest` events. */
export interface Manifest {
    /** The event and request channels live in the app now. */
    channels: string[];
    /** The push channels the app declares. */
    pushes?: string[];
    features: { [feature: string]: boolean };
    /** The digest of the whole contract of the live channels. */
    contract?: string;
    /** Each live channel's contract digest. */
    contracts?: { [channel: string]: string };
}

/** Anything shaped like `window.webkit.messageHandlers`. */
export interface MessageHandlers {
    [channel: string]: { postMessage(body: unknown): Promise<unknown> } | undefined;
}

export interface ConnectOptions {
    /** The transport; default `globalThis.webkit?.messageHandlers` (then the dev server's, when it serves the page). */
    handlers?: MessageHandlers;
    /** The manifest to start with; default `globalThis[globalName].manifest`. */
    manifest?: Manifest;
    /** Where `<globalName>:manifest` and `<globalName>:push` events arrive; default `globalThis`. */
    events?: EventTarget;
    /** Default "switchboard". */
    globalName?: string;
    /** Call channels whose contract digest differs from the app's. Default false. */
    allowContractSkew?: boolean;
    /** How long `ready` waits for a first manifest, in ms (0: forever). Default 10000. */
    readyTimeout?: number;
}

/** The arguments of a call whose body type is `Body`: none for a channel without a body. */
export type BodyArguments<Body> = [Body] extends [void] ? [body?: undefined] : [body: Body];

/** Each channel of the contract mapped to whether it is live. */
export type Availability<Name extends string> = { readonly [N in Name]: boolean };

/**
 * The client of one contract.
 * - `Events`: event channel name -> body type (`void` for none);
 * - `Requests`: request channel name -> `[body, reply]`;
 * - `Pushes`: push channel name -> body type.
 */
export interface Switchboard<
    Events extends { [N in keyof Events]: unknown },
    Requests extends { [N in keyof Requests]: readonly [unknown, unknown] },
    Pushes extends { [N in keyof Pushes]: unknown },
> {
    /** Resolves with the manifest once the page has it; rejects with kind "unavailable" outside the app. */
    readonly ready: Promise<Manifest>;
    /** The current manifest, or null before the page has one. */
    readonly manifest: Manifest | null;
    /** Whether a call on `channel` would be posted now. */
    isAvailable(channel: ChannelName<Events, Requests, Pushes>): boolean;
    /**
     * The channels whose contract the app says differs from this page's (its answer to the page's
     * hello, sent once per `connect()`), or null before the answer and when the app does not answer hellos.
     */
    readonly differing: readonly string[] | null;
    /** Resolves with `differing` once the app answered the hello (null when it does not); never rejects. */
    readonly contractCheck: Promise<readonly string[] | null>;
    /** Called on each manifest change; returns an unsubscribe function. */
    onAvailabilityChange(
        callback: (availability: Availability<ChannelName<Events, Requests, Pushes>>, manifest: Manifest | null) => void,
    ): () => void;
    /** Event channels: resolve when the app handled the message. */
    readonly send: { readonly [N in keyof Events]: (...body: BodyArguments<Events[N]>) => Promise<void> };
    /** Request channels: resolve with the reply. */
    readonly request: {
        readonly [N in keyof Requests]: (...body: BodyArguments<Requests[N][0]>) => Promise<Requests[N][1]>;
    };
    /** Push channels: `callback(body)` for each push; returns an unsubscribe function. */
    readonly on: { readonly [N in keyof Pushes]: (callback: (body: Pushes[N]) => void) => () => void };
    /** Stops listening; later calls reject with kind "unavailable". */
    close(): void;
}

/** The names of all the channels of a client. */
export type ChannelName<Events, Requests, Pushes> = Extract<keyof Events | keyof Requests | keyof Pushes, string>;

/** The channel table the generated module passes to `createClient`. */
export interface ContractTable {
    contract: string;
    channels: { [channel: string]: { kind: "event" | "request" | "push"; digest: string } };
}

export declare function createClient<
    Events extends { [N in keyof Events]: unknown },
    Requests extends { [N in keyof Requests]: readonly [unknown, unknown] },
    Pushes extends { [N in keyof Pushes]: unknown },
>(contract: ContractTable, options?: ConnectOptions): Switchboard<Events, Requests, Pushes>;
