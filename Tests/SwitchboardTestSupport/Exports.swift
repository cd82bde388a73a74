// The router-level helpers' target re-exports the codec-level one, so that a router test imports
// one support module (`import SwitchboardTestSupport`) and reaches every shared helper.
@_exported import SwitchboardJSONTestSupport
