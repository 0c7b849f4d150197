func isAdmin(_ user: String) -> Bool { user == "root" }

/* Swift allows RLO inside identifiers: the two names below look alike.
   /* nested ⁦comment⁩ */ still the outer comment ⁧ */
func isAdmin‮(_ user: String) -> Bool { true }

let query = #"SELECT * FROM users -- "quoted" ⁧"#
let message = """
  Dear user,‫
  """
let balanced = "‭abc‬"
