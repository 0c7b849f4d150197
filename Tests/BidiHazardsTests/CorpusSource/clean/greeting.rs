// تحية بالعربية
fn greet<'a>(name: &'a str) -> String {
    format!("שלום ⟦FSI⟧{}⟦PDI⟧!", name)
}

fn main() {
    let raw = r##"مرحبا "#quoted"# ⟦LRI⟧x⟦PDI⟧"##;
    let multi = "שורה ראשונה
שורה ⟦RLI⟧שנייה⟦PDI⟧";
    let mark = '⟦RLM⟧';
    /* outer /* ⟦RLE⟧inner⟦PDF⟧ */ עברית */
    println!("{} {} {} {}", greet("x"), raw, multi, mark);
}
