/// ברכה: returns a greeting with the name isolated.
func greet(_ name: String) -> String {
  "שלום ⁨\(name)⁩!"
}

/* تعليق /* متداخل ‫ نص ‬ */ ⁦ok⁩ */
let poem = """
  שורה ⁧ראשונה⁩
  سطر ثاني‏
  """
let raw = #"مرحبا "⁦quoted⁩" \#(poem)"#
let שלום = "hello"
