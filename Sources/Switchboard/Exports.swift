// The codec is a module of its own (SwitchboardJSON: JSONValue, BodyDecoder, BodyEncoder,
// JSONReader, JSONWriter, their errors and options); a router's user gets it with
// `import Switchboard`, as swift-nio's `NIO` re-exports `NIOCore`.
@_exported import SwitchboardJSON
