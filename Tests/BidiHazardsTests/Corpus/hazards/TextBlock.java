public class TextBlock {
    static boolean isAdmin = false;

    public static void main(String[] args) {
        String query = """
            SELECT * FROM users ‮
            """;
        /*‮ } ⁦if (isAdmin)⁩ ⁦ begin admins only */
            System.out.println("You are an admin.");
        /* end admins only ‮ { ⁦*/
        char c = '‏';
        System.out.println(query + c);
    }
}
