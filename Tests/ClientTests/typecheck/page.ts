// A page using the generated client, compiled with `tsc --strict`: it must pass.
import { connect, SwitchboardError, type ErrorKind, type Manifest, type ProductCart } from "./switchboard.js";

const sb = connect();

async function start(): Promise<void> {
    const manifest: Manifest = await sb.ready;
    console.log(manifest.channels.join(", "), manifest.features["productCart"] === true);

    if (sb.isAvailable("addCartLine")) {
        await sb.send.addCartLine({ merchandiseId: "m1", productId: "p1", quantity: 2, attributes: { size: "M" } });
    }
    await sb.send.sdkReady();

    const cart: ProductCart = await sb.request.productCartGetState();
    const total: string = cart.price;
    const first: number | undefined = cart.offers[0]?.quantity;
    console.log(total, first);

    const stop: () => void = sb.on.cartChanged((changed) => {
        const count: number = changed.offers.length;
        console.log(count);
    });
    stop();

    const unsubscribe = sb.onAvailabilityChange((availability, current) => {
        const live: boolean = availability.productCartGetState;
        console.log(live, current?.contract);
    });
    unsubscribe();

    try {
        await sb.send.addCartLine({ merchandiseId: "m1", productId: "p1", quantity: 0, attributes: {} });
    } catch (error) {
        if (error instanceof SwitchboardError) {
            const kind: ErrorKind = error.kind;
            const channel: string | null = error.channel;
            console.log(kind === "failed" || kind === "unavailable", channel, error.message, error.data);
        }
    }
    sb.close();
}

void start();
