#include <stdbool.h>
#include <stdio.h>

/* Trojan Source: commenting-out. The RLO reverses the rest of the comment,
   so the `if (isAdmin)` test appears to be code but is inside the comment. */
int main(void) {
    bool isAdmin = false;
    /*‮ } ⁦if (isAdmin)⁩ ⁦ begin admins only */
        printf("You are an admin.\n");
    /* end admins only ‮ { ⁦*/
    return 0;
}
