fn is_admin(user: &str) -> bool {
    user == "root"
}

fn main() {
    let user = "guest";
    /* outer /* inner */ still the outer comment ⟦RLO:inComment+override⟧ */
    let sql = r#"SELECT "name" FROM users ⟦RLI:inString⟧"#;
    let note = "first line
second ⟦LRE:inString⟧ line";
    let lifetime_check: &'static str = "ok";
    let c = '⟦RLM⟧';
    if is_admin(user) ⟦PDI:unmatched⟧{
        println!("admin {} {} {} {}", sql, note, lifetime_check, c);
    }
    let access⟦ALM:inIdentifier⟧level = 1;
}
