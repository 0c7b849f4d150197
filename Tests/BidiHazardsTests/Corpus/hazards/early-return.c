/* Trojan Source: an early return hidden between two comments. GCC's rule:
   a control opened in a comment must be closed before that comment ends,
   even if a closer follows later on the line. */
int check_access(int level) {
    /* ⁧ */ return 0; /* ⁩ */
    int limit = 10; // ‮ maximum
    const char *role = "user‮ ⁦// admin⁩ ⁦";
    if (level > limit && role[0] == 'u') {
        return 1;
    }
    return 0;
}
