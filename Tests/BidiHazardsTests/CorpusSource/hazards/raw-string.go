package main

import "fmt"

func main() {
    isAdmin := false
    query := `SELECT *
FROM users ⟦RLO:inString+override⟧ WHERE admin`
    fmt.Println(query, isAdmin) // ⟦LRI:inComment⟧ debug
    r := '⟦LRM⟧'
    /* ⟦RLE:inComment⟧ */ isAdmin = true /* ⟦PDF:unmatched⟧ */
    fmt.Println(r, isAdmin)
}
