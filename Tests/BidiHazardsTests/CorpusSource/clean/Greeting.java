// ברכה בעברית
public class Greeting {
    public static void main(String[] args) {
        String text = """
            שלום ⟦LRI⟧world⟦PDI⟧
            مرحبا⟦RLM⟧
            """;
        char mark = '⟦RLM⟧';
        System.out.println("⟦RLI⟧שלום⟦PDI⟧ " + text + mark); /* ⟦LRE⟧ok⟦PDF⟧ */
    }
}
