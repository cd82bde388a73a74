// Must NOT compile: a misspelt channel, and a request called through send.
import { connect } from "./switchboard.js";

const sb = connect();
void sb.send.addCartLines({ merchandiseId: "m1", productId: "p1", quantity: 1, attributes: {} }); // error
void sb.send.productCartGetState(); // error
void sb.isAvailable("addCartLines"); // error
