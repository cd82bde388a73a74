// Must NOT compile: a push callback reading a key the push body does not have, and a body on a bodyless channel.
import { connect } from "./switchboard.js";

const sb = connect();
sb.on.cartChanged((cart) => console.log(cart.total)); // error
void sb.send.sdkReady({ extra: true }); // error
