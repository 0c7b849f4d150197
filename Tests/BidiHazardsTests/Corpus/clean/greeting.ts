// تحية
export function greet(name: string): string {
  return `שלום ⁨${name}⁩!`;
}
const label: string = "עברית‏ 1"; // ⁦ok⁩
