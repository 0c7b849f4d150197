// ברכה בעברית ובערבית
const hebrew = "שלום ⁦world⁩";
const arabic = 'مرحبا ‏!';
const multi = `שורה ראשונה
${hebrew} ⁧שורה⁩ שנייה`;
const re = /[א-ת]+‎/u;
/* تعليق ‫متوازن‬ */
console.log(hebrew, arabic, multi, re, 6 / 3);
