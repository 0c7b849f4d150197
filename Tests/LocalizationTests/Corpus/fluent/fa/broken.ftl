greeting = سلام { $name }
farewell = خداحافظ { $name
next = بعدی
