// The demo shop: the same page runs in the app's WKWebView and, through switchboard-dev, in any browser.
import { connect, SwitchboardError } from "./switchboard.js";

const products = [
    { offerId: "36512", name: "Cotton T-shirt", price: "10.50", oldPrice: "12.00", color: "#e76f51" },
    { offerId: "40017", name: "Enamel mug", price: "7.90", color: "#2a9d8f" },
    { offerId: "51230", name: "Wool cap", price: "15.00", color: "#e9c46a" },
];
const tote = { merchandiseId: "gid://shop/Tote/1", productId: "tote", quantity: 1, attributes: { reward: "loyalty" } };

const sb = connect();
const $ = (selector) => document.querySelector(selector);
let cart = { offers: [], price: "0", priceCurrency: "" };
let cartLines = []; // the cart lines, as the last cartChanged push listed them
let lastToteLine = null;

/** One line in the message log; `kind` is "ok", "error" or "push". */
function note(text, kind = "ok") {
    const item = document.createElement("li");
    item.className = kind;
    item.textContent = `${new Date().toLocaleTimeString()}  ${text}`;
    $("#log").prepend(item);
}

/** Runs a call and logs its outcome; a SwitchboardError is shown with its kind. */
async function attempt(label, call) {
    try {
        const result = await call();
        note(`${label}: ok`);
        return result;
    } catch (error) {
        const kind = error instanceof SwitchboardError ? error.kind : "error";
        note(`${label}: ${kind}: ${error.message}`, "error");
        document.body.dataset.lastError = kind;
        return undefined;
    }
}

function quantityOf(offerId) {
    return cart.offers.find((offer) => offer.offerId === offerId)?.quantity ?? 0;
}

async function setQuantity(product, quantity) {
    const offer = { offerId: product.offerId, name: product.name, price: product.price, currency: "EUR",
        imageUrls: [], availability: 1, quantity, ...(product.oldPrice ? { oldPrice: product.oldPrice } : {}) };
    const reply = await attempt(`productCartUpdate ${product.name} × ${quantity}`, () => sb.request.productCartUpdate({ offer }));
    if (reply) render(reply);
}

function render(next) {
    cart = next;
    const lines = $("#cart-lines");
    lines.replaceChildren();
    for (const offer of cart.offers) {
        const row = document.createElement("div");
        row.innerHTML = "<span></span><span class=price></span>";
        row.firstChild.textContent = `${offer.name ?? offer.offerId} × ${offer.quantity}`;
        row.lastChild.textContent = `${offer.price ?? "?"} ${offer.currency ?? ""}`;
        lines.append(row);
    }
    if (cart.offers.length === 0) lines.innerHTML = '<span class="empty">Your cart is empty</span>';
    $("#total").innerHTML = cart.oldPrice && cart.oldPrice !== cart.price ? "<s></s><span></span>" : "<span></span>";
    if (cart.oldPrice && cart.oldPrice !== cart.price) $("#total s").textContent = cart.oldPrice;
    $("#total span").textContent = `${cart.price} ${cart.priceCurrency}`.trim();
    for (const product of products) $(`#qty-${product.offerId}`).textContent = quantityOf(product.offerId);
    document.body.dataset.cartTotal = cart.price;
}

function renderProducts() {
    for (const product of products) {
        const row = document.createElement("div");
        row.className = "product";
        row.innerHTML = `<div class="swatch" style="background:${product.color}"></div><div class="name"></div>
            <span class="price">${product.price} EUR</span>
            <button data-step="-1" aria-label="one less">−</button><span class="qty" id="qty-${product.offerId}">0</span>
            <button data-step="1" aria-label="one more">+</button>`;
        row.querySelector(".name").textContent = product.name;
        for (const button of row.querySelectorAll("button")) {
            button.id = `${button.dataset.step === "1" ? "add" : "remove"}-${product.offerId}`;
            button.addEventListener("click", () => {
                setQuantity(product, Math.max(0, quantityOf(product.offerId) + Number(button.dataset.step)));
            });
        }
        $("#products").append(row);
    }
}

/** Features and channels as the app's manifest says, and the buttons that need them. */
function renderAvailability(availability, manifest) {
    const flags = (list, entries) => {
        list.replaceChildren(...entries.map(([name, on]) => {
            const item = document.createElement("li");
            item.textContent = name;
            item.className = on ? "on" : "";
            return item;
        }));
    };
    flags($("#features"), Object.entries(manifest?.features ?? {}));
    flags($("#channels"), Object.entries(availability));
    for (const product of products) {
        $(`#add-${product.offerId}`).disabled = !availability.productCartUpdate;
        $(`#remove-${product.offerId}`).disabled = !availability.productCartUpdate;
    }
    $("#claim").disabled = !availability.addCartLine;
    $("#unclaim").disabled = !availability.removeCartLine;
    $("#open-cart").disabled = !availability.productCartClicked;
}

function showStatus(text, state) {
    $("#status").textContent = text;
    $("#status").className = state;
    document.body.dataset.status = state;
}

renderProducts();
sb.onAvailabilityChange((availability, manifest) => {
    renderAvailability(availability, manifest);
    if (!Object.values(availability).some(Boolean)) showStatus("the app is unavailable", "down");
});
const toteLine = () => cartLines.find((line) => line.merchandiseId === tote.merchandiseId);

sb.on.cartChanged((changed) => {
    note(`cartChanged push: ${changed.offers.length} offer(s), ${changed.price} ${changed.priceCurrency}`.trim(), "push");
    render(changed);
    cartLines = changed.lines ?? [];
    const line = toteLine();
    if (line) lastToteLine = line.lineId;
    $("#rewards").textContent = line ? `tote × ${line.quantity} (line ${line.lineId.split("/").pop()})` : "";
    document.body.dataset.tote = line ? String(line.quantity) : "0";
});

$("#claim").addEventListener("click", () => attempt("addCartLine tote", () => sb.send.addCartLine(tote)));
$("#unclaim").addEventListener("click", () => {
    // Without a tote line in the cart, this asks to remove the last one again: the app refuses.
    const lineId = toteLine()?.lineId ?? lastToteLine ?? "gid://shopify/CartLine/1";
    return attempt("removeCartLine tote", () => sb.send.removeCartLine({ ...tote, lineId }));
});
$("#open-cart").addEventListener("click", () => attempt("productCartClicked", () => sb.send.productCartClicked()));

try {
    const manifest = await sb.ready;
    showStatus(`live · contract ${String(manifest.contract ?? "?").slice(7, 15)}`, "live");
    const names = Object.keys({ ...sb.send, ...sb.request, ...sb.on });
    renderAvailability(Object.fromEntries(names.map((name) => [name, sb.isAvailable(name)])), manifest);
    if (sb.isAvailable("sdkReady")) attempt("sdkReady", () => sb.send.sdkReady());
    const state = await attempt("productCartGetState", () => sb.request.productCartGetState());
    if (state) render(state);
} catch (error) {
    showStatus(error instanceof SwitchboardError ? `unavailable: ${error.message}` : String(error), "down");
    note(`ready: ${error.kind ?? "error"}: ${error.message}`, "error");
}
document.body.dataset.started = "yes";
