func isAdmin(_ user: String) -> Bool { user == "root" }

/* Swift allows RLO inside identifiers: the two names below look alike.
   /* nested ⟦LRI⟧comment⟦PDI⟧ */ still the outer comment ⟦RLI:inComment⟧ */
func isAdmin⟦RLO:inIdentifier+override⟧(_ user: String) -> Bool { true }

let query = #"SELECT * FROM users -- "quoted" ⟦RLI:inString⟧"#
let message = """
  Dear user,⟦RLE:inString⟧
  """
let balanced = "⟦LRO:override⟧abc⟦PDF⟧"
