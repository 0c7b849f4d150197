// ברכה בעברית
public class Greeting {
    public static void main(String[] args) {
        String text = """
            שלום ⁦world⁩
            مرحبا‏
            """;
        char mark = '‏';
        System.out.println("⁧שלום⁩ " + text + mark); /* ‪ok‬ */
    }
}
