// A hand-written stand-in for the generated part of switchboard.d.ts (what
// `switchboard-cli client --only addCartLine,productCartGetState,sdkReady` appends to
// switchboard-runtime.d.ts, plus the cartChanged push), to design the page's types against.

export interface AddCartLine {
    attributes: { [key: string]: string };
    merchandiseId: string;
    productId: string;
    quantity: number;
}

export interface ProductCartOffer {
    availability: number;
    imageUrls: string[];
    name?: string | null;
    offerId: string;
    price?: string | null;
    quantity: number;
}

export interface ProductCart {
    offers: ProductCartOffer[];
    oldPrice?: string | null;
    price: string;
    priceCurrency: string;
}

/** Connects to the app (or the dev server, or `options.handlers`). */
export declare function connect(options?: ConnectOptions): Switchboard<
    { addCartLine: AddCartLine; sdkReady: void },
    { productCartGetState: [void, ProductCart] },
    { cartChanged: ProductCart }
>;
