print("bidi-lsp: not yet")
