package main

import "fmt"

// ברכה: prints a greeting
func main() {
    raw := `שורה ⟦LRI⟧one⟦PDI⟧
سطر ⟦RLM⟧ثاني`
    mark := '⟦LRM⟧'
    fmt.Println("مرحبا ⟦RLI⟧"+raw+"⟦PDI⟧", mark) /* ⟦RLE⟧עברית⟦PDF⟧ */
}
