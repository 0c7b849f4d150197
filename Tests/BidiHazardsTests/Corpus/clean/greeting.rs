// تحية بالعربية
fn greet<'a>(name: &'a str) -> String {
    format!("שלום ⁨{}⁩!", name)
}

fn main() {
    let raw = r##"مرحبا "#quoted"# ⁦x⁩"##;
    let multi = "שורה ראשונה
שורה ⁧שנייה⁩";
    let mark = '‏';
    /* outer /* ‫inner‬ */ עברית */
    println!("{} {} {} {}", greet("x"), raw, multi, mark);
}
