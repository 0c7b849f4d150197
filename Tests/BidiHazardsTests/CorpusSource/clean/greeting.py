# -*- coding: utf-8 -*-
"""وحدة التحية: ⟦LRI⟧Hello⟦PDI⟧ بالعربية."""

سلام = "مرحبا"
greeting = f"{سلام}⟦LRM⟧ world"
hebrew = 'שלום⟦RLM⟧!'
multi = """שורה ראשונה
⟦FSI⟧שורה⟦PDI⟧ שנייה
"""
number = "الرقم⟦ALM⟧ 42"  # تعليق ⟦RLE⟧مضمن⟦PDF⟧
path = r"C:\temp" + "⟦RLI⟧x⟦PDI⟧"
