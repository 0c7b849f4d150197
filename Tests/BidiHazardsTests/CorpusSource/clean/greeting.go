package main

import "fmt"

// ברכה: prints a greeting
func main() {
    raw := `שורה ⟦LRI⟧one⟦PDI⟧
سطر ⟦RLM⟧ثاني`
    mark := '⟦LRM⟧'
    fmt.Println("⟦RLI⟧مرحبا⟦PDI⟧ "+raw, mark) /* ⟦RLE⟧עברית⟦PDF⟧ */
}
