print("switchboard: not yet built")
