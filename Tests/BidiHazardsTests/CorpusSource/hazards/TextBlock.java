public class TextBlock {
    static boolean isAdmin = false;

    public static void main(String[] args) {
        String query = """
            SELECT * FROM users ⟦RLO:inString+override⟧
            """;
        /*⟦RLO:inComment+override⟧ } ⟦LRI⟧if (isAdmin)⟦PDI⟧ ⟦LRI:inComment⟧ begin admins only */
            System.out.println("You are an admin.");
        /* end admins only ⟦RLO:inComment+override⟧ { ⟦LRI:inComment⟧*/
        char c = '⟦RLM⟧';
        System.out.println(query + c);
    }
}
