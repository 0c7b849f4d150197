/* Trojan Source: an early return hidden between two comments. GCC's rule:
   a control opened in a comment must be closed before that comment ends,
   even if a closer follows later on the line. */
int check_access(int level) {
    /* ⟦RLI:inComment⟧ */ return 0; /* ⟦PDI:unmatched⟧ */
    int limit = 10; // ⟦RLO:inComment+override⟧ maximum
    const char *role = "user⟦RLO:inString+override⟧ ⟦LRI⟧// admin⟦PDI⟧ ⟦LRI:inString⟧";
    if (level > limit && role[0] == 'u') {
        return 1;
    }
    return 0;
}
