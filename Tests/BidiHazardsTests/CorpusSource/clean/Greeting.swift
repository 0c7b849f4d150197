/// ברכה: returns a greeting with the name isolated.
func greet(_ name: String) -> String {
  "שלום ⟦FSI⟧\(name)⟦PDI⟧!"
}

/* تعليق /* متداخل ⟦RLE⟧ نص ⟦PDF⟧ */ ⟦LRI⟧ok⟦PDI⟧ */
let poem = """
  שורה ⟦RLI⟧ראשונה⟦PDI⟧
  سطر ثاني⟦RLM⟧
  """
let raw = #"مرحبا "⟦LRI⟧quoted⟦PDI⟧" \#(poem)"#
let שלום = "hello"
