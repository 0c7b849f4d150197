fn is_admin(user: &str) -> bool {
    user == "root"
}

fn main() {
    let user = "guest";
    /* outer /* inner */ still the outer comment ‮ */
    let sql = r#"SELECT "name" FROM users ⁧"#;
    let note = "first line
second ‪ line";
    let lifetime_check: &'static str = "ok";
    let c = '‏';
    if is_admin(user) ⁩{
        println!("admin {} {} {} {}", sql, note, lifetime_check, c);
    }
    let access؜level = 1;
}
