// Must NOT compile: a reply used as another type (price is a string).
import { connect } from "./switchboard.js";

async function read(): Promise<number> {
    const cart = await connect().request.productCartGetState();
    return cart.price; // error
}
void read();
