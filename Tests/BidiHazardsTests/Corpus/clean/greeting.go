package main

import "fmt"

// ברכה: prints a greeting
func main() {
    raw := `שורה ⁦one⁩
سطر ‏ثاني`
    mark := '‎'
    fmt.Println("⁧مرحبا⁩ "+raw, mark) /* ‫עברית‬ */
}
