#include <stdbool.h>
#include <stdio.h>

/* Trojan Source: commenting-out. The RLO reverses the rest of the comment,
   so the `if (isAdmin)` test appears to be code but is inside the comment. */
int main(void) {
    bool isAdmin = false;
    /*⟦RLO:inComment+override⟧ } ⟦LRI⟧if (isAdmin)⟦PDI⟧ ⟦LRI:inComment⟧ begin admins only */
        printf("You are an admin.\n");
    /* end admins only ⟦RLO:inComment+override⟧ { ⟦LRI:inComment⟧*/
    return 0;
}
