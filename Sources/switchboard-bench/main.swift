print("bench: not yet built")
