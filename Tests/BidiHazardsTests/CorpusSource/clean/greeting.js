// ברכה בעברית ובערבית
const hebrew = "שלום ⟦LRI⟧world⟦PDI⟧";
const arabic = 'مرحبا ⟦RLM⟧!';
const multi = `שורה ראשונה
${hebrew} ⟦RLI⟧שורה⟦PDI⟧ שנייה`;
const re = /[א-ת]+⟦LRM⟧/u;
/* تعليق ⟦RLE⟧متوازن⟦PDF⟧ */
console.log(hebrew, arabic, multi, re, 6 / 3);
