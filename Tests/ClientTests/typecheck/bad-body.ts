// Must NOT compile, with an error on each line marked "error": wrong bodies.
import { connect } from "./switchboard.js";

const sb = connect();
void sb.send.addCartLine({ merchandiseId: "m1", productId: "p1", quantity: "2", attributes: {} }); // error
void sb.send.addCartLine({ merchandiseId: "m1", quantity: 2, attributes: {} }); // error
void sb.send.addCartLine(); // error
