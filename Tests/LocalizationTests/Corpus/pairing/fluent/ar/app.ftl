welcome = أهلا بك!
files = في { $folder } يوجد { $count } ملفات
open-brand = افتح { -brand-name }
-brand-name = فايرفوكس
