#include <stdio.h>

/* תגובה בעברית: הפונקציה מדפיסה ברכה */
// تعليق بالعربية: هذه الدالة تطبع تحية
int main(void) {
    const char *hebrew = "שלום עולם";
    const char *arabic = "مرحبا بالعالم";
    const char *mixed = "⟦RLI⟧שלום⟦PDI⟧ world";
    const char *marked = "עברית⟦RLM⟧ (123)";
    /* ⟦RLE⟧שלום⟦PDF⟧ and ⟦FSI⟧مرحبا⟦PDI⟧ balanced in a comment */
    printf("%s %s %s %s\n", hebrew, arabic, mixed, marked);
    char apostrophe = '\'';
    return apostrophe == 0;
}
