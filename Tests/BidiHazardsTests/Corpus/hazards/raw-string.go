package main

import "fmt"

func main() {
    isAdmin := false
    query := `SELECT *
FROM users ‮ WHERE admin`
    fmt.Println(query, isAdmin) // ⁦ debug
    r := '‎'
    /* ‫ */ isAdmin = true /* ‬ */
    fmt.Println(r, isAdmin)
}
